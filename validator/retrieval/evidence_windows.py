"""What the judge is shown for a claim: each retrieved passage with its neighbours in its
source (sentence-window retrieval), within a bound on the characters of evidence per claim.

Each hit gets an equal share of ``max_chars``. A hit shorter than its share grows by up to
``neighbours`` passages on each side, nearest first, the last one cut to fit; a hit longer than
its share (a ``query_function`` passage, or a tiny bound) is cut. Windows that overlap in one
source are merged, so no text is shown twice. Offsets stay exact:
``sources[e.source][e.start:e.end] == e.text``. Evidence that leaves out part of its chunk
(a window of a long ``full`` source) is marked ``cut``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import Chunk, Evidence
from .index import SourceIndex


def windows(index: SourceIndex, sources: Sequence[str], hits: Sequence[tuple[int, float | None]],
            max_chars: int | None, neighbours: int) -> list[Evidence]:
    """The evidence for ``hits`` (passage id, similarity), best first."""
    share = max_chars // len(hits) if max_chars is not None and hits else None
    spans: list[list] = []  # [source, start, end, similarity, passage ids]
    for passage, similarity in hits:
        chunk = index.chunks[passage]
        start, end = _grow(index, passage, share, neighbours)
        for span in spans:  # merge with an overlapping window of the same source
            if span[0] == chunk.source and start <= span[2] and span[1] <= end:
                span[1], span[2] = min(span[1], start), max(span[2], end)
                span[4].append(passage)
                break
        else:
            spans.append([chunk.source, start, end, similarity, [passage]])
    found = []
    for source, start, end, similarity, members in spans:
        text = sources[source][start:end]
        cut = any(not (start <= index.parents[p][0] and index.parents[p][1] <= end)
                  for p in members)
        found.append(Evidence(text, similarity, Chunk(text, start, end, source), cut))
    return found


def _grow(index: SourceIndex, passage: int, share: int | None,
          neighbours: int) -> tuple[int, int]:
    chunks, chunk = index.chunks, index.chunks[passage]
    start, end = chunk.start, chunk.end
    if share is not None and end - start > share:
        return start, start + share
    limit = share if share is not None else float("inf")
    for step in range(1, neighbours + 1):
        for other in (passage - step, passage + step):
            if not 0 <= other < len(chunks) or chunks[other].source != chunk.source:
                continue
            if chunks[other].start < start:
                start -= int(min(start - chunks[other].start, limit - (end - start)))
            if chunks[other].end > end:
                end += int(min(chunks[other].end - end, limit - (end - start)))
    return start, end


def bounded(evidence: Sequence[Evidence], max_chars: int | None) -> list[Evidence]:
    """``evidence`` (a ``query_function``'s passages) with each text cut to an equal share of
    ``max_chars``; cut ones are marked."""
    if max_chars is None or not evidence:
        return list(evidence)
    share = max_chars // len(evidence)
    return [e if len(e.text) <= share else Evidence(e.text[:share], e.similarity, None, True)
            for e in evidence]
