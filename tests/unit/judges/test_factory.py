"""The one place a judge is chosen (``make_judge``) and adapted (``adapt``): names through one
registry whose error lists every name it takes, what users pass adapted once to the awaited
judge protocol, with what each backend declares of itself."""

import asyncio

import pytest

from provenance_guard import ConfigurationError, Verdict
from provenance_guard.judges import CallableJudge, LocalJudge, make_judge
from provenance_guard.judges.factory import _REGISTRY, NAMES
from provenance_guard.judges.objects import adapt
from provenance_guard.types import Context, Evidence

EVIDENCE = [Evidence("The Eiffel Tower is in Paris.")]


def test_an_unknown_name_is_refused_with_every_name_the_registry_takes():
    with pytest.raises(ConfigurationError) as refused:
        make_judge("no-such-provider-model-xyz")
    message = str(refused.value)
    assert "no-such-provider-model-xyz" in message
    for name in (*_REGISTRY, "LiteLLM model name"):
        assert name in message and name in NAMES


def test_names_pick_their_backends():
    assert isinstance(make_judge("local"), LocalJudge)
    assert make_judge("minicheck:ollama/bespoke-minicheck").group_size == 1
    assert isinstance(make_judge(lambda prompt: "yes"), CallableJudge)
    with pytest.raises(ValueError, match="local"):
        make_judge("  ")


class OneAtATime:
    def __init__(self):
        self.asked = []

    def judge(self, claim, evidence, question=None):
        self.asked.append(claim)
        return Verdict("supported", "by hand", 1.0)


class Batches(OneAtATime):
    def judge_batch(self, items, question=None):
        return [Verdict("unsupported", "batched", 0.0) for _ in items]


class Awaited(OneAtATime):
    async def ajudge(self, claim, evidence, question=None):
        return Verdict("contradicted", "awaited", 0.0)


def test_a_judge_object_is_adapted_once_to_what_it_can_do():
    one, batches, awaited = adapt(OneAtATime()), adapt(Batches()), adapt(Awaited())
    assert (one.abilities.group_size, batches.abilities.group_size) == (1, None)
    assert not one.abilities.extracts_claims and not one.abilities.corrects
    items = [("A.", EVIDENCE), ("B.", EVIDENCE)]
    labels = [[str(v.label) for v in asyncio.run(backend.verdicts(items, Context()))]
              for backend in (one, batches, awaited)]
    assert labels == [["supported"] * 2, ["unsupported"] * 2, ["contradicted"] * 2]
    assert adapt(one) is one  # a backend is used as it is


def test_what_a_judge_object_returns_is_checked_where_it_is_adapted():
    class Junk(OneAtATime):
        def judge(self, claim, evidence, question=None):
            return "supported"

    class Short(Batches):
        def judge_batch(self, items, question=None):
            return []

    items = [("A.", EVIDENCE), ("B.", EVIDENCE)]
    with pytest.raises(ConfigurationError, match="Junk.judge returned 'supported'"):
        asyncio.run(adapt(Junk()).verdicts(items, Context()))
    with pytest.raises(ConfigurationError, match="a list of 2; got list of 0"):
        asyncio.run(adapt(Short()).verdicts(items, Context()))


@pytest.mark.parametrize("basis", [-1, True, "0", 1.0])
def test_a_judge_objects_basis_is_an_index_or_none(basis):
    from provenance_guard import Verdict

    class Pointing(OneAtATime):
        def judge(self, claim, evidence, question=None):
            return Verdict("supported", "ok", score=1.0, basis=basis)

    with pytest.raises(ConfigurationError, match="a basis that is None or the index"):
        asyncio.run(adapt(Pointing()).verdicts([("A.", EVIDENCE)], Context()))


def test_a_plugin_named_like_a_built_in_name_or_a_litellm_prefix_is_not_used(monkeypatch):
    from importlib.metadata import EntryPoint

    from provenance_guard.judges import factory

    points = [EntryPoint(name, "json:loads", factory.PLUGINS)
              for name in ("ft", "local", "nli", "mine", "mine")]
    monkeypatch.setattr(factory, "entry_points", lambda group: points)
    factory.plugins.cache_clear()
    try:
        assert list(factory.plugins()) == ["mine"]
        assert "'mine:...'" in factory.names() and "'ft:...'" not in factory.names()
    finally:
        factory.plugins.cache_clear()
