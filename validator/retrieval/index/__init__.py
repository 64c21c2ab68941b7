"""Source indexes: FAISS over chunk vectors (``faiss_index``), kept in memory by content
(``cache``) and on disk under ``index_dir`` (``store``)."""

from .cache import INDEX_CACHE, IndexCache, build_index, content_key
from .faiss_index import APPROXIMATE_FROM, SourceIndex
from .store import IndexStore

__all__ = ["APPROXIMATE_FROM", "INDEX_CACHE", "IndexCache", "IndexStore", "SourceIndex",
           "build_index", "content_key"]
