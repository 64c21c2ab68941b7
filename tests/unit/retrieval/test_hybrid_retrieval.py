"""Dense and BM25 fused by reciprocal rank, the question in the query,
evidence with its neighbours, duplicates that crowd nothing out, the BM25 index stored and
checked like the dense one."""

import hashlib
import json
import warnings

import numpy as np
import pytest
from conftest import ScriptedJudge, ToyEmbedder, caught_warnings

from provenance_guard import ProvenanceLLM
from provenance_guard.retrieval.index import INDEX_CACHE
from provenance_guard.retrieval.index.bm25 import LexicalIndex
from provenance_guard.retrieval.index.faiss_index import fuse


def evidence_of(result, sentence=0):
    return result.metadata["sentences"][sentence]["evidence"]


def validate(text, sources, judge=None, embed=None, **options):
    judge = judge or ScriptedJudge(rule=lambda statement, passages: True)
    metadata = {"sources": sources, "embed_function": embed or ToyEmbedder(),
                "chunk_strategy": "sentence", "chunk_size": 1, "chunk_overlap": 0}
    metadata.update(options.pop("metadata", {}))
    return ProvenanceLLM(llm_callable=judge, **options).validate(text, metadata)


def test_reciprocal_rank_fusion_by_hand():
    # 1: 1/61 + 1/63; 2: 1/62 + 1/61; 3: 1/63 + 1/62; 4: 1/64
    assert fuse([[1, 2, 3], [2, 3, 1, 4]], 4) == [2, 1, 3, 4]
    assert fuse([[5], [6]], 2) == [5, 6]  # a tie goes to the dense ranking's
    assert fuse([[], []], 3) == []


def random_embedder(dim=64):
    """Vectors that say nothing about meaning (seeded by each text's hash)."""
    def embed(texts):
        return np.stack([np.random.default_rng(int(hashlib.md5(t.encode()).hexdigest()[:8], 16))
                         .standard_normal(dim) for t in texts]).astype(np.float32)
    return embed


def test_bm25_finds_what_a_useless_dense_ranking_misses():
    sources = [f"Passage {i} tells of the town of Vell{i} and its mill." for i in range(60)]
    sources[37] = "The Quendrith glacier feeds the Aluvian river."
    text = "The Quendrith glacier feeds a river."
    hybrid = validate(text, sources, embed=random_embedder(), top_k=1)
    dense = validate(text, sources, embed=random_embedder(), top_k=1, retrieval="dense")
    assert evidence_of(hybrid)[0]["source"] == 37
    assert evidence_of(dense)[0]["source"] != 37
    # the similarity reported is still the dense cosine of the passage shown
    assert -1.0 <= evidence_of(hybrid)[0]["similarity"] <= 1.0


@pytest.mark.parametrize("retrieval", ["dense", "hybrid"])
def test_the_question_informs_the_query(retrieval):
    sources = ["Zorblat was founded in 1901 in Oslo.", "Quibble was founded in 1901 in Lima."]
    for question, want in (("When was Zorblat founded?", 0), ("When was Quibble founded?", 1)):
        result = validate("It was founded in 1901.", sources, top_k=1, retrieval=retrieval,
                          metadata={"question": question})
        assert evidence_of(result)[0]["source"] == want, question


@pytest.mark.parametrize("retrieval", ["dense", "hybrid"])
def test_a_thousand_copies_of_one_source_do_not_crowd_out_another(retrieval):
    """The failure this guards against: with sources [a]*1000 + [b], only a was ever retrieved."""
    a = "The harbour of Brindle is busy with fishing boats every morning."
    b = "The harbour of Calloway closed in 1950 after the storm."
    before = INDEX_CACHE.embedded_chunks
    result = validate("The harbour of Calloway closed in 1950.", [a] * 1000 + [b], top_k=2,
                      retrieval=retrieval)
    assert INDEX_CACHE.embedded_chunks - before == 2  # each distinct text embedded once
    assert [e["source"] for e in evidence_of(result)] == [1000, 0]


def test_a_claim_citing_one_of_two_identical_sources_finds_its_evidence_in_that_one():
    sources = ["Other text about boats.", "More text about trains.", "Yet more about planes.",
               "The Eiffel Tower is in Paris.", "Unrelated words here.", "Another filler line.",
               "A third filler line.", "The Eiffel Tower is in Paris."]
    for cited in (4, 8):
        result = validate(f"The Eiffel Tower is in Paris [{cited}].", sources,
                          judge=ScriptedJudge(), top_k=2)
        sentence = result.metadata["sentences"][0]
        assert sentence["verdict"] == "supported" and sentence["citation"]["status"] == "ok"
        assert [e["source"] for e in sentence["evidence"]] == [cited - 1]


def test_evidence_is_the_hit_with_its_neighbours_with_exact_offsets():
    source = "Alpha one. Bravo two. The Zorvath bridge is teal. Delta four. Echo five."
    result = validate("The Zorvath bridge is teal.", [source, "Unrelated."], top_k=1,
                      evidence_window=1)
    [evidence] = evidence_of(result)
    assert evidence["text"] == "Bravo two. The Zorvath bridge is teal. Delta four."
    assert source[evidence["start"]:evidence["end"]] == evidence["text"]
    assert not evidence["cut"]
    wider = evidence_of(validate("The Zorvath bridge is teal.", [source], top_k=1,
                                 evidence_window=2))
    assert wider[0]["text"] == source
    alone = evidence_of(validate("The Zorvath bridge is teal.", [source], top_k=1,
                                 evidence_window=0))
    assert alone[0]["text"] == "The Zorvath bridge is teal."


def test_neighbouring_hits_are_merged_so_no_text_is_shown_twice():
    source = "Alpha one. The teal bridge. The teal tower. Delta four. Echo five. Foxtrot six."
    judge = ScriptedJudge(rule=lambda statement, passages: True)
    result = validate("The teal bridge and the teal tower.", [source], judge=judge, top_k=2)
    [evidence] = evidence_of(result)
    assert evidence["text"] == "Alpha one. The teal bridge. The teal tower. Delta four."


def test_query_function_users_are_unaffected():
    seen = []

    def query(text, k):
        seen.append((text, k))
        return [("The Eiffel Tower is in Paris.", 0.9)]

    result = ProvenanceLLM(llm_callable=ScriptedJudge(), top_k=2).validate(
        "The Eiffel Tower is in Paris.", {"query_function": query, "question": "Where is it?"})
    assert seen == [("The Eiffel Tower is in Paris.", 2)]  # the claim alone, as before
    assert result.outcome == "pass"
    assert evidence_of(result) == [{"text": "The Eiffel Tower is in Paris.", "source": None,
                                    "start": None, "end": None, "similarity": 0.9, "cut": False,
                                    "said": None, "tool": None, "fields": []}]


def store_files(directory):
    return sorted(p.name for p in directory.iterdir() if ".bm25." in p.name)


def stored_validate(directory, builds):
    """Validate from a cold memory cache with indexes under ``directory``; count BM25 builds."""
    INDEX_CACHE.clear()
    embed = ToyEmbedder(key="toy-hybrid-v1")
    with caught_warnings() as caught:
        result = validate("The Eiffel Tower is in Paris.",
                          ["The Eiffel Tower is in Paris.", "The Louvre is in Paris too."],
                          judge=ScriptedJudge(), embed=embed, index_dir=directory)
    return result, caught, len(builds)


@pytest.fixture
def builds(monkeypatch):
    calls = []
    original = LexicalIndex.build.__func__

    def counting(cls, texts):
        calls.append(len(texts))
        return original(cls, texts)

    monkeypatch.setattr(LexicalIndex, "build", classmethod(counting))
    return calls


def test_the_bm25_index_is_stored_and_reloaded_without_rebuilding(tmp_path, builds):
    first, caught, built = stored_validate(tmp_path, builds)
    assert built == 1 and caught == [] and len(store_files(tmp_path)) == 1
    second, caught, built = stored_validate(tmp_path, builds)
    assert built == 1 and caught == []  # loaded, not built again
    assert evidence_of(second) == evidence_of(first)


@pytest.mark.parametrize("damage", ["foreign-vocabulary", "checksum", "missing-file",
                                    "wrong-count", "weights"])
def test_a_stored_bm25_index_that_does_not_match_is_reported_and_rebuilt(tmp_path, builds,
                                                                        damage):
    first, _, _ = stored_validate(tmp_path, builds)
    [manifest_path] = tmp_path.glob("*.json")
    [npz_path] = tmp_path.glob("*.bm25.npz")
    manifest = json.loads(manifest_path.read_text())
    lexical = manifest["lexical"]
    if damage == "foreign-vocabulary":  # checksum intact: the .npz is untouched
        lexical["vocabulary"] = ["berlin" if w == "paris" else w for w in lexical["vocabulary"]]
    elif damage == "checksum":
        npz_path.write_bytes(npz_path.read_bytes()[:-10])
    elif damage == "missing-file":  # a partial set: the manifest names a file that is gone
        npz_path.unlink()
    elif damage == "wrong-count":
        lexical["count"] = 7
    else:  # weights rewritten under the name their new checksum gives, the manifest updated:
        import io  # the arrays are not BM25's of the texts
        with np.load(npz_path) as stored:
            arrays = {name: stored[name].copy() for name in stored.files}
        arrays["data"] *= 3
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        lexical["sha256"] = hashlib.sha256(buffer.getvalue()).hexdigest()
        key = manifest_path.name.removesuffix(".json")
        (tmp_path / f"{key}.{lexical['sha256'][:16]}.bm25.npz").write_bytes(buffer.getvalue())
    manifest_path.write_text(json.dumps(manifest))
    result, caught, built = stored_validate(tmp_path, builds)
    assert built == 2, "the damaged index was used"
    assert any("lexical index" in message for message in caught), caught
    assert evidence_of(result) == evidence_of(first)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, _, built = stored_validate(tmp_path, builds)  # the rebuilt one was stored
    assert built == 2
    assert len(store_files(tmp_path)) == 1  # the damaged file went with the set it was in


def test_the_memory_cache_weighs_the_bm25_index():
    embed = ToyEmbedder()
    validate("The Eiffel Tower is in Paris.", ["The Eiffel Tower is in Paris."] * 3,
             embed=embed, retrieval="dense")
    dense_bytes = INDEX_CACHE._entries.bytes
    validate("The Eiffel Tower is in Paris.", ["The Eiffel Tower is in Paris."] * 3, embed=embed)
    assert len(INDEX_CACHE) == 1  # the same entry, grown by its BM25 index
    assert INDEX_CACHE._entries.bytes > dense_bytes
