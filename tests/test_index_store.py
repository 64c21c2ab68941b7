"""Indexes on disk (index_dir) and the approximate index.

A stored index is reloaded by a new process without embedding anything; a process killed while
storing, a corrupted or foreign file, and a directory that cannot be written never crash a
validation or serve a wrong index: they are reported and rebuilt."""

import json
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from conftest import REPO, SOURCES, ToyEmbedder

from provenance_guard import ProvenanceLLM
from provenance_guard.index import INDEX_CACHE, SourceIndex
from provenance_guard.types import Chunk

TEXT = "The Eiffel Tower is in Paris. It houses the Mona Lisa."

CHILD = textwrap.dedent("""
    import json, os, sys
    import provenance_guard
    from provenance_guard import ProvenanceLLM
    from provenance_guard.index import INDEX_CACHE
    if sys.argv[2] == "die-before-commit":
        real = os.replace
        def dying(src, dst):
            if str(dst).endswith(".json"):
                os._exit(9)  # killed after the .faiss file, before the .json commits it
            real(src, dst)
        os.replace = dying
    sources = json.loads(sys.argv[3])
    judge = lambda prompt: '{"verdict": "supported"}'
    result = ProvenanceLLM(llm_callable=judge, index_dir=sys.argv[1]).validate(
        "The Eiffel Tower is in Paris.", {"sources": sources})
    print(json.dumps({"embedded": INDEX_CACHE.embedded_chunks,
                      "evidence": result.metadata["sentences"][0]["evidence"][0]["text"]}))
""")


def child(directory, mode="normal"):
    done = subprocess.run([sys.executable, "-c", CHILD, str(directory), mode, json.dumps(SOURCES)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    return done


def validate(directory):
    INDEX_CACHE.clear()
    judge = ScriptedSupported()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        before = INDEX_CACHE.embedded_chunks
        result = ProvenanceLLM(llm_callable=judge, index_dir=directory).validate(
            TEXT, {"sources": SOURCES})
    return result, INDEX_CACHE.embedded_chunks - before, [str(w.message) for w in caught]


class ScriptedSupported:
    def __call__(self, prompt):
        return '{"verdict": "supported"}'


def stored(directory):
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))


def test_a_new_process_reloads_the_index_without_embedding(tmp_path):
    first = json.loads(child(tmp_path).stdout)
    second = json.loads(child(tmp_path).stdout)
    assert first["embedded"] > 0 and second["embedded"] == 0
    assert first["evidence"] == second["evidence"] == SOURCES[0]
    assert len(stored(tmp_path)) == 2  # <key>.faiss and <key>.json


def test_a_process_killed_while_storing_leaves_nothing_that_is_read(tmp_path):
    killed = child(tmp_path, "die-before-commit")
    assert killed.returncode == 9
    assert not any(name.endswith(".json") for name in stored(tmp_path))
    result, embedded, _ = validate(tmp_path)
    assert result.outcome == "pass" and embedded > 0  # rebuilt, then stored whole
    assert len([n for n in stored(tmp_path) if n.endswith(".json")]) == 1


@pytest.mark.parametrize("damage", ["truncate-faiss", "garbage-json", "foreign-json",
                                    "wrong-count", "missing-faiss"])
def test_a_damaged_stored_index_is_reported_and_rebuilt(tmp_path, damage):
    validate(tmp_path)  # stores it
    [meta_path] = tmp_path.glob("*.json")
    faiss_path = meta_path.with_suffix(".faiss")
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
    assert result.outcome == "pass" and embedded > 0
    assert any("not usable" in w and "rebuilding" in w for w in caught)
    _, embedded_again, caught_again = validate(tmp_path)  # the rebuilt pair is good
    assert embedded_again == 0 and not caught_again


def test_an_unwritable_directory_is_reported_and_validation_goes_on(tmp_path):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    result, embedded, caught = validate(blocked)
    assert result.outcome == "pass" and embedded > 0
    assert any("memory only" in w for w in caught)


def test_user_embed_functions_are_not_stored(tmp_path):
    ProvenanceLLM(llm_callable=ScriptedSupported(), index_dir=tmp_path).validate(
        TEXT, {"sources": SOURCES, "embed_function": ToyEmbedder()})
    assert stored(tmp_path) == []  # its identity is an object id, meaningless in another process


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
    import provenance_guard.index.faiss_index as index_module

    monkeypatch.setattr(index_module, "APPROXIMATE_FROM", 1000)
    vectors = clustered(1200)
    chunks = [Chunk(f"c{i}", i, i + 1, 0) for i in range(1200)]
    assert SourceIndex(chunks, vectors).approximate
    assert not SourceIndex(chunks[:999], vectors[:999]).approximate
