"""Source indexes: kept in memory by content (bounded), on disk under index_dir, and the
approximate index.

A stored index is reloaded by a new process without embedding anything; a process killed while
storing, a corrupted or foreign file, and a directory that cannot be written never crash a
validation or serve a wrong index: they are reported and rebuilt. The embedder is conftest's
ToyEmbedder named by an ``embedding_key`` (so its indexes may be stored), which spares the
child process the real model; one test stores and reloads the real default embedder's index."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import GOOD, REPO, SOURCES, ToyEmbedder, agrees, caught_warnings, toy_metadata

from provenance_guard import ProvenanceLLM
from provenance_guard.request import Chunking
from provenance_guard.retrieval.embedding import FunctionEmbedder
from provenance_guard.retrieval.index import INDEX_CACHE, IndexCache, SourceIndex
from provenance_guard.types import Chunk

KEY = "toy-bag-of-words-v1"
TEXT = f"{GOOD} It houses the Mona Lisa."
OTHER_SOURCES = ["The Louvre houses the Mona Lisa.", "The Eiffel Tower is in Paris."]

# Reloads what the parent stored, reports, then dies while storing another index: after its
# data files are in place, before the manifest (.json) that commits them.
CHILD = textwrap.dedent("""
    import json, os, sys
    sys.path.insert(0, sys.argv[2])
    from conftest import GOOD, SOURCES, ToyEmbedder, agrees, toy_metadata
    from provenance_guard import ProvenanceLLM
    from provenance_guard.retrieval.index import INDEX_CACHE

    def validate(sources):
        validator = ProvenanceLLM(llm_callable=agrees,
                                  index_dir=sys.argv[1])
        return validator.validate(GOOD, toy_metadata(sources=sources,
                                                     embed_function=ToyEmbedder(key=sys.argv[3])))

    result = validate(SOURCES)
    print(json.dumps({"embedded": INDEX_CACHE.embedded_chunks,
                      "evidence": result.metadata["sentences"][0]["evidence"]}), flush=True)
    real = os.replace
    def dying(src, dst):
        if str(dst).endswith(".json"):
            os._exit(9)
        real(src, dst)
    os.replace = dying
    validate(json.loads(sys.argv[4]))
""")


def validate(directory, sources=SOURCES, embed_function=None):
    """Validate TEXT with indexes under ``directory``, from a cold memory cache; return the
    result, how many chunks were embedded, and the warnings."""
    INDEX_CACHE.clear()
    before = INDEX_CACHE.embedded_chunks
    metadata = toy_metadata(sources=sources, embed_function=embed_function or ToyEmbedder(key=KEY))
    validator = ProvenanceLLM(llm_callable=agrees,
                              index_dir=directory)
    with caught_warnings() as caught:
        result = validator.validate(TEXT, metadata)
    return result, INDEX_CACHE.embedded_chunks - before, caught


def stored(directory):
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))


def manifests(directory):
    """The manifests of the stored sets, one per index."""
    return [n for n in stored(directory) if n.endswith(".json")]


def set_of(directory, manifest):
    """The files of the set ``manifest`` commits: itself and the data files it names."""
    key = manifest.removesuffix(".json")
    return sorted(n for n in stored(directory) if n.startswith(f"{key}."))


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    """One child process over an index directory the parent stored SOURCES' index in."""
    directory = tmp_path_factory.mktemp("indexes")
    parent, _, _ = validate(directory)
    done = subprocess.run([sys.executable, "-c", CHILD, str(directory), str(REPO / "tests"), KEY,
                           json.dumps(OTHER_SOURCES)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    return directory, parent, done


def test_a_new_process_reloads_the_index_without_embedding(child):
    directory, parent, done = child
    report = json.loads(done.stdout.splitlines()[0])
    assert report["embedded"] == 0
    assert report["evidence"] == parent.metadata["sentences"][0]["evidence"]
    assert report["evidence"][0]["text"].startswith(GOOD)  # with its neighbour, as context


def test_a_process_killed_while_storing_leaves_nothing_that_is_read(child):
    directory, _, done = child
    assert done.returncode == 9, done.stderr[-2000:]
    [parents] = manifests(directory)  # the parent's only; the child's data files are orphans
    assert len(stored(directory)) == 3 + 2  # the parent's set, and the child's two data files
    result, embedded, caught = validate(directory, OTHER_SOURCES)
    assert result.outcome == "pass" and embedded == 2  # rebuilt, not read
    assert len(caught) == 1 and "no manifest that vouches for them" in caught[0], caught
    assert len(manifests(directory)) == 2 and len(stored(directory)) == 3 + 3  # stored whole
    _, embedded_again, caught_again = validate(directory, OTHER_SOURCES)
    assert embedded_again == 0 and caught_again == []


@pytest.mark.slow
def test_the_default_embedders_index_is_stored_and_reloaded(tmp_path):
    metadata = {"sources": SOURCES}  # no embed_function: all-MiniLM-L6-v2

    def run():
        INDEX_CACHE.clear()
        before = INDEX_CACHE.embedded_chunks
        result = ProvenanceLLM(llm_callable=agrees, top_k=2,  # fewer than the 3 passages:
                               index_dir=tmp_path).validate(GOOD, metadata)  # embedded
        return result.metadata["sentences"][0]["evidence"], INDEX_CACHE.embedded_chunks - before

    first, embedded = run()
    # the manifest <key>.json and the two data files it names: .faiss and .bm25.npz
    assert embedded == len(SOURCES) and len(stored(tmp_path)) == 3
    second, embedded_again = run()
    assert embedded_again == 0 and second == first
    assert first[0]["source"] == 0 and first[0]["similarity"] > 0.5


@pytest.mark.parametrize("damage", ["truncate-faiss", "garbage-json", "foreign-json",
                                    "wrong-count", "missing-faiss"])
def test_a_damaged_stored_index_is_reported_and_rebuilt(tmp_path, damage):
    validate(tmp_path)  # stores it
    [meta_path] = [tmp_path / name for name in manifests(tmp_path)]
    [faiss_path] = tmp_path.glob("*.faiss")
    if damage == "truncate-faiss":
        faiss_path.write_bytes(faiss_path.read_bytes()[:100])
    elif damage == "garbage-json":
        meta_path.write_text("{not json")
    elif damage == "foreign-json":
        meta = json.loads(meta_path.read_text())
        meta["key"] = "0" * 64
        meta_path.write_text(json.dumps(meta))
    elif damage == "wrong-count":
        meta = json.loads(meta_path.read_text())
        meta["chunks"] = meta["chunks"][:-1]
        meta_path.write_text(json.dumps(meta))
    else:
        faiss_path.unlink()
    result, embedded, caught = validate(tmp_path)
    assert result.outcome == "pass" and embedded == 7
    assert any("not usable" in w and "rebuilding" in w for w in caught)
    _, embedded_again, caught_again = validate(tmp_path)  # the rebuilt pair is good
    assert embedded_again == 0 and not caught_again


def test_an_unwritable_directory_is_reported_and_validation_goes_on(tmp_path):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    result, embedded, caught = validate(blocked)
    assert result.outcome == "pass" and embedded == 7
    assert any("memory only" in w for w in caught)


@pytest.mark.parametrize("key", [None, "  "], ids=["no key", "blank key"])
def test_embed_functions_without_a_key_are_not_stored(tmp_path, key):
    # without a name, a function's identity is an object id, meaningless in another process
    result, embedded, _ = validate(tmp_path, embed_function=ToyEmbedder(key=key))
    assert result.outcome == "pass" and embedded == 7
    assert stored(tmp_path) == []


def test_the_index_cache_is_bounded_and_keeps_the_recently_used():
    cache = IndexCache(max_entries=4)
    embedder = FunctionEmbedder(ToyEmbedder())
    sources = [[f"Source number {n} says something."] for n in range(10)]
    for n in range(10):
        cache.get(sources[n], Chunking(), embedder)
        cache.get(sources[6], Chunking(), embedder)  # used again and again: kept
    assert len(cache) == 4 and cache.embedded_chunks == 10
    cache.get(sources[6], Chunking(), embedder)
    cache.get(sources[9], Chunking(), embedder)
    assert cache.embedded_chunks == 10  # both still there
    cache.get(sources[0], Chunking(), embedder)
    assert cache.embedded_chunks == 11  # evicted long ago: embedded again


def clustered(n, dim=64, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((n // 20, dim))
    vectors = centres[rng.integers(0, len(centres), n)] + 0.8 * rng.standard_normal((n, dim)) / 8
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def test_the_approximate_index_agrees_with_the_exact_one():
    vectors = clustered(3000)
    chunks = [Chunk(f"chunk {i}", i, i + 1, i // 100) for i in range(3000)]
    exact = SourceIndex(chunks, vectors, approximate=False)
    approximate = SourceIndex(chunks, vectors, approximate=True)
    assert approximate.approximate and not exact.approximate
    queries = vectors[::37] + 0.01
    found = [[e.start for e in hits] for hits in approximate.search(queries, 5)]
    truth = [[e.start for e in hits] for hits in exact.search(queries, 5)]
    recall = sum(len(set(a) & set(b)) for a, b in zip(found, truth, strict=True)) / (5 * len(truth))
    assert recall >= 0.95
    # a search limited to cited sources scans the exact vectors the graph stores
    limited = approximate.search(queries[:3], 5, [frozenset({4})] * 3)
    assert all(e.source == 4 for hits in limited for e in hits)
    assert [[e.start for e in h] for h in limited] == \
        [[e.start for e in h] for h in exact.search(queries[:3], 5, [frozenset({4})] * 3)]


def test_size_decides_exact_or_approximate(monkeypatch):
    import provenance_guard.retrieval.index.faiss_index as index_module

    monkeypatch.setattr(index_module, "APPROXIMATE_FROM", 1000)
    vectors = clustered(1200)
    chunks = [Chunk(f"c{i}", i, i + 1, 0) for i in range(1200)]
    assert SourceIndex(chunks, vectors).approximate
    assert not SourceIndex(chunks[:999], vectors[:999]).approximate


# -- A complete set or nothing ---------------------------------------------------------------

@pytest.mark.parametrize("failing", [".faiss", ".bm25.npz", ".json"])
def test_a_write_that_fails_leaves_no_files_when_there_was_no_set(tmp_path, monkeypatch, failing):
    """A full disk at any of the set's three writes: no file of it is left, validation goes
    on from memory, and the next run builds and stores the set whole."""
    import errno

    import provenance_guard.retrieval.index.store as store

    real = store.atomic_write

    def full(path, data, durable=False):
        if str(path).endswith(failing):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data, durable)

    monkeypatch.setattr(store, "atomic_write", full)
    result, embedded, caught = validate(tmp_path)
    assert result.outcome == "pass" and embedded == 7
    assert any("memory only" in w for w in caught) and stored(tmp_path) == []
    monkeypatch.setattr(store, "atomic_write", real)
    _, embedded, caught = validate(tmp_path)
    assert embedded == 7 and caught == [] and len(stored(tmp_path)) == 3


def test_a_write_that_fails_leaves_the_previous_set_whole(tmp_path, monkeypatch):
    """A dense-only set, then a run that adds the BM25 index: its manifest cannot be written.
    The previous set is still there and still read, nothing rebuilt, no stray file."""
    import errno

    import provenance_guard.retrieval.index.store as store

    INDEX_CACHE.clear()
    metadata = toy_metadata(embed_function=ToyEmbedder(key=KEY))
    ProvenanceLLM(llm_callable=agrees, index_dir=tmp_path,
                  retrieval="dense").validate(TEXT, metadata)
    previous = stored(tmp_path)
    assert len(previous) == 2  # a manifest and the .faiss file
    real = store.atomic_write

    def full(path, data, durable=False):
        if str(path).endswith(".json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data, durable)

    monkeypatch.setattr(store, "atomic_write", full)
    result, embedded, caught = validate(tmp_path)  # hybrid: loads the set, adds BM25
    assert result.outcome == "pass" and embedded == 0 and any("memory only" in w for w in caught)
    assert stored(tmp_path) == previous
    monkeypatch.setattr(store, "atomic_write", real)
    _, embedded, caught = validate(tmp_path)
    assert embedded == 0 and caught == [] and len(stored(tmp_path)) == 3  # now with its BM25


FULL_DISK = textwrap.dedent("""
    import json, os, sys, warnings
    sys.path.insert(0, sys.argv[2])
    from conftest import SOURCES, ToyEmbedder, agrees, toy_metadata
    from provenance_guard import ProvenanceLLM
    from provenance_guard.retrieval.index import INDEX_CACHE

    directory = sys.argv[1]

    def validate(sources):
        INDEX_CACHE.clear()
        before = INDEX_CACHE.embedded_chunks
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ProvenanceLLM(llm_callable=agrees,
                          index_dir=directory).validate(
                "The Eiffel Tower is in Paris.",
                toy_metadata(sources=sources, embed_function=ToyEmbedder(key="toy-full")))
        return {"warnings": [str(w.message) for w in caught],
                "embedded": INDEX_CACHE.embedded_chunks - before,
                "files": sorted(os.listdir(directory))}

    report = {"first": validate(SOURCES)}
    space = os.statvfs(directory)
    with open(os.path.join(directory, "filler"), "wb") as filler:  # one page is left
        filler.write(bytes(space.f_bavail * space.f_frsize - space.f_frsize))
    report["second"] = validate(json.loads(sys.argv[3]))
    os.remove(os.path.join(directory, "filler"))
    report["third"] = validate(SOURCES)
    print(json.dumps(report))
""")


def test_a_disk_that_fills_while_storing_leaves_the_previous_sets_and_nothing_else(tmp_path):
    """A real full disk (a small tmpfs, mounted in a user namespace): room for the next set's
    FAISS file but not for the rest. Its files are gone; the earlier set is still read."""
    mount = tmp_path / "disk"
    mount.mkdir()
    run = subprocess.run(
        ["unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o size=1m tmpfs "$1" && shift && '
         'exec "$@"', "sh", str(mount), sys.executable, "-c", FULL_DISK, str(mount),
         str(REPO / "tests"), json.dumps(OTHER_SOURCES)],
        capture_output=True, text=True, cwd=REPO, timeout=300)
    if run.returncode and "mount" in run.stderr and not run.stdout:
        pytest.skip(f"cannot mount a small file system here: {run.stderr.strip()[-200:]}")
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.splitlines()[-1])
    first, second, third = report["first"], report["second"], report["third"]
    assert len(first["files"]) == 3 and first["warnings"] == []
    assert any("No space left" in w and "memory only" in w for w in second["warnings"])
    assert second["files"] == sorted([*first["files"], "filler"])  # nothing of the new set
    assert third == {"warnings": [], "embedded": 0, "files": first["files"]}


def test_files_of_an_older_format_are_reported_rebuilt_and_removed(tmp_path):
    """A set as the previous version stored it (a .faiss beside its .json, the BM25 index in
    two more files): reported, rebuilt, and replaced, so no old file stays."""
    validate(tmp_path)
    [manifest] = manifests(tmp_path)
    key = manifest.removesuffix(".json")
    for name in stored(tmp_path):
        (tmp_path / name).unlink()
    for suffix, content in [(".faiss", b"old"), (".bm25.npz", b"old"), (".bm25.json", b"{}"),
                            (".json", json.dumps({"format": 2, "key": key}).encode())]:
        (tmp_path / f"{key}{suffix}").write_bytes(content)
    result, embedded, caught = validate(tmp_path)
    assert result.outcome == "pass" and embedded == 7
    assert any("another version" in w for w in caught), caught
    assert set_of(tmp_path, manifest) == stored(tmp_path) and len(stored(tmp_path)) == 3
    assert not (tmp_path / f"{key}.faiss").exists()
