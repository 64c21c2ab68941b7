"""The bad-input corpus: every case has a defined result, a clear error naming the problem
and the fix, or a documented outcome. Never an exception from deep inside numpy, FAISS,
tokenizers or LiteLLM; never a silent pass."""

import warnings

import numpy as np
import pytest
from conftest import GOOD, SOURCES, ScriptedJudge, toy_metadata
from guardrails.validator_base import FailResult, PassResult

from provenance_guard import ProvenanceLLM

meta = toy_metadata


def check(value, metadata, **options):
    options.setdefault("llm_callable", ScriptedJudge())
    return ProvenanceLLM(**options).validate(value, metadata)



class Error:
    """Expect ``kind`` raised with a message matching every pattern."""

    def __init__(self, kind, *patterns):
        self.kind, self.patterns = kind, patterns


PASS, FAIL = "pass", "fail"
BIG = "The Eiffel Tower is in Paris. " * 350_000  # 10.5 MB
MANY = " ".join(f"Sentence number {i} is here." for i in range(5000))


def nan_embedder(texts):
    return np.full((len(texts), 4), np.nan)


def dims_by_call():
    calls = []

    def embed(texts):
        calls.append(1)
        return np.ones((len(texts), 8 if len(calls) == 1 else 16))

    return embed


def raising(*args, **kwargs):
    raise ConnectionError("vector store is down")


CASES = [
    # the validated value
    ("value is an int", lambda: check(42, meta()), Error(ValueError, "validates text", "int")),
    ("value is None", lambda: check(None, meta()), Error(ValueError, "NoneType")),
    ("value is bytes", lambda: check(b"Paris.", meta()), Error(ValueError, "bytes", "str")),
    ("value is a dict", lambda: check({"a": 1}, meta()), Error(ValueError, "dict")),
    ("value is a list", lambda: check([GOOD], meta()), Error(ValueError, "list")),
    ("value is empty", lambda: check("", meta()), PASS),
    ("value is whitespace", lambda: check(" \n\t ", meta()), PASS),
    ("value has no letters or digits", lambda: check("😀 — ✨", meta()), PASS),
    ("control characters", lambda: check(f"\x00\x07{GOOD}\x1b", meta()), FAIL),
    ("control characters around a supported sentence",
     lambda: check(f"{GOOD}\n\x0c", meta()), PASS),
    ("lone surrogate in the text", lambda: check(f"The tower \ud800 is tall. {GOOD}", meta()), FAIL),
    ("right-to-left text", lambda: check("برج إيفل في باريس. מגדל אייפל.", meta()), FAIL),
    ("emoji in a sentence", lambda: check("The Eiffel Tower 🗼 is in Paris.", meta()), FAIL),
    ("metadata is None", lambda: check(GOOD, None), Error(ValueError, "sources", "query_function")),
    ("metadata is empty", lambda: check(GOOD, {}), Error(ValueError, r"metadata\['sources'\]")),
    ("metadata is a list", lambda: check(GOOD, [SOURCES]), Error(ValueError, "metadata must be a dict")),
    # sources
    ("sources is None", lambda: check(GOOD, meta(sources=None)), Error(ValueError, "sources")),
    ("sources is bytes", lambda: check(GOOD, meta(sources=b"x")),
     Error(ValueError, "list of strings", "bytes")),
    ("sources is a dict", lambda: check(GOOD, meta(sources={"a": "b"})),
     Error(ValueError, "list of strings", "dict")),
    ("sources is a string", lambda: check(GOOD, meta(sources=SOURCES[0])),
     Error(ValueError, "list of strings", "str")),
    ("sources is a nested list", lambda: check(GOOD, meta(sources=[SOURCES])),
     Error(ValueError, r"sources'\]\[0\]", "list")),
    ("a source is None", lambda: check(GOOD, meta(sources=[SOURCES[0], None])),
     Error(ValueError, r"\[1\]", "NoneType")),
    ("a source is bytes", lambda: check(GOOD, meta(sources=[b"Paris"])), Error(ValueError, "bytes")),
    ("a source is an int", lambda: check(GOOD, meta(sources=["ok", 3])),
     Error(ValueError, r"sources'\]\[1\]", "int")),
    ("sources is empty", lambda: check(GOOD, meta(sources=[])), FAIL),
    ("the only source is empty", lambda: check(GOOD, meta(sources=[""])), FAIL),
    ("the only source is whitespace", lambda: check(GOOD, meta(sources=["  \n "])), FAIL),
    ("duplicate sources", lambda: check(GOOD, meta(sources=[SOURCES[0]] * 3)), PASS),
    ("lone surrogate in a source", lambda: check(GOOD, meta(sources=[SOURCES[0] + " \udfff"])), PASS),
    ("a 10 MB source is refused by default", lambda: check(GOOD, meta(sources=[BIG])),
     Error(ValueError, "max_source_chars", "10,500,000")),
    ("a 10 MB source with the limit lifted",
     lambda: check(GOOD, meta(sources=[BIG], chunk_strategy="char", chunk_size=3000),
                   max_source_chars=None), PASS),
    ("a 5,000-sentence output is refused by default", lambda: check(MANY, meta()),
     Error(ValueError, "max_sentences", "5,000")),
    # one call at a time: 5,000 scripted answers are quicker without threads taking turns
    ("a 5,000-sentence output with the limit lifted",
     lambda: check(MANY, meta(), max_sentences=None, deadline=None, max_concurrency=1), FAIL),
    # embed_function
    ("embed_function returns NaN", lambda: check(GOOD, meta(embed_function=nan_embedder)),
     Error(ValueError, "NaN")),
    ("embed_function returns a flat list", lambda: check(GOOD, meta(embed_function=lambda t: [0.1, 0.2])),
     Error(ValueError, "one vector per text")),
    ("embed_function changes dimension", lambda: check(GOOD, meta(embed_function=dims_by_call())),
     Error(ValueError, "dimension")),
    ("embed_function returns the wrong count",
     lambda: check(GOOD, meta(embed_function=lambda t: np.ones((len(t) + 1, 4)))),
     Error(ValueError, "one vector per text")),
    ("embed_function returns None", lambda: check(GOOD, meta(embed_function=lambda t: None)),
     Error(ValueError, "embed_function")),
    ("embed_function returns strings", lambda: check(GOOD, meta(embed_function=lambda t: t)),
     Error(ValueError, "not numeric")),
    ("embed_function is not callable", lambda: check(GOOD, meta(embed_function="minilm")),
     Error(ValueError, "callable")),
    ("embed_function raises", lambda: check(GOOD, meta(embed_function=raising)),
     Error(RuntimeError, "embed_function", "vector store is down")),
    # query_function
    ("query_function raises", lambda: check(GOOD, {"query_function": raising}),
     Error(RuntimeError, "query_function", "ConnectionError")),
    ("query_function returns None", lambda: check(GOOD, {"query_function": lambda text, k: None}),
     Error(ValueError, "query_function", "NoneType")),
    ("query_function returns ints", lambda: check(GOOD, {"query_function": lambda text, k: [1, 2]}),
     Error(ValueError, "int at position 0")),
    ("query_function returns bad pairs",
     lambda: check(GOOD, {"query_function": lambda text, k: [("chunk", "high")]}),
     Error(ValueError, "pair")),
    ("query_function is not callable", lambda: check(GOOD, {"query_function": "search"}),
     Error(ValueError, "callable")),
    ("query_function returns nothing", lambda: check(GOOD, {"query_function": lambda text, k: []}),
     FAIL),
    # settings
    ("top_k larger than the number of chunks", lambda: check(GOOD, meta(), top_k=500), PASS),
    ("top_k is 0", lambda: check(GOOD, meta(), top_k=0), Error(ValueError, "top_k")),
    ("top_k is a string", lambda: check(GOOD, meta(), top_k="3"), Error(ValueError, "top_k")),
    ("max_concurrency is 0", lambda: check(GOOD, meta(), max_concurrency=0),
     Error(ValueError, "max_concurrency")),
    ("unknown validation_method", lambda: check(GOOD, meta(), validation_method="paragraph"),
     Error(ValueError, "sentence, claim, full")),
    ("unknown citations mode", lambda: check(GOOD, meta(), citations="strict"),
     Error(ValueError, "auto, required, off")),
    ("negative deadline", lambda: check(GOOD, meta(), deadline=-1), Error(ValueError, "deadline")),
    ("batch_size 0", lambda: check(GOOD, meta(), batch_size=0), Error(ValueError, "batch_size")),
    ("unknown chunk_strategy", lambda: check(GOOD, meta(chunk_strategy="page")),
     Error(ValueError, "chunk_strategy")),
    ("chunk_size 0", lambda: check(GOOD, meta(chunk_size=0)), Error(ValueError, "chunk_size")),
    ("question is not a string", lambda: check(GOOD, meta(question=["who?"])),
     Error(ValueError, "question")),
    ("llm_callable is a number", lambda: ProvenanceLLM(llm_callable=3), Error(ValueError, "llm_callable")),
]


@pytest.mark.parametrize("run,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input(run, expected):
    if isinstance(expected, Error):
        with pytest.raises(expected.kind) as raised:
            run()
        for pattern in expected.patterns:
            assert raised.match(pattern)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = run()
    assert isinstance(result, PassResult if expected == PASS else FailResult), result
    for sentence in result.metadata["sentences"]:
        assert sentence["verdict"] in ("supported", "unsupported", "contradicted", "invalid")


def test_lone_surrogates_reach_the_real_embedder_safely():
    # tokenizers reject lone surrogates deep inside; the default embedder gets U+FFFD instead
    validator = ProvenanceLLM(llm_callable=ScriptedJudge())
    result = validator.validate(f"The tower \ud800 is tall. {GOOD}",
                                {"sources": [SOURCES[0] + " \udfff"]})
    assert [s["text"] for s in result.metadata["sentences"]][0] == "The tower \ud800 is tall."


@pytest.mark.filterwarnings("ignore:the judge gave no readable verdict")
@pytest.mark.parametrize("metadata,options", [({"pass_on_invalid": "false"}, {}),
                                              ({}, {"pass_on_invalid": "no"})],
                         ids=["metadata", "argument"])
def test_a_string_where_a_bool_belongs_is_refused(metadata, options):
    # Taken as True, it would turn a judge's unreadable reply into a pass: fail open.
    with pytest.raises(ValueError, match="pass_on_invalid"):
        check(GOOD, meta(**metadata), llm_callable=lambda prompt: "I cannot tell.", **options)


def test_an_embedding_model_that_cannot_be_loaded_is_a_configuration_error_naming_it():
    """Offline (HF_HUB_OFFLINE, as on a machine with no network), a misspelt model name is
    not huggingface_hub's error about a URL: it names the setting and the fix."""
    import os
    import subprocess
    import sys

    script = (
        "from provenance_guard import ProvenanceLLM\n"
        "from provenance_guard.errors import ConfigurationError\n"
        "v = ProvenanceLLM(llm_callable='local', embedding_model='all-MiniLM-L6-v3')\n"
        "try:\n"
        "    v.validate('The tower is in Paris.', {'sources': ['The tower is in Paris.']})\n"
        "except ConfigurationError as error:\n"
        "    print('CONFIGURATION', error)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert "CONFIGURATION embedding_model 'all-MiniLM-L6-v3' cannot be loaded" in done.stdout, (
        done.stdout + done.stderr[-2000:])
    assert "all-MiniLM-L6-v2" in done.stdout


# -- Warnings name the caller's line, and a mistyped metadata key ---------------------------------

def test_a_warning_names_the_callers_line_not_the_librarys(tmp_path):
    def failing_judge(prompt):
        raise RuntimeError("the judge is down")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(GOOD, meta(query_function=lambda text, k: SOURCES[:k]))  # both given
        check(GOOD, meta(), llm_callable=failing_judge, max_retries=0)  # deep in the retries
    messages = {str(w.message).split(";")[0].split(":")[0]: w for w in caught}
    for start in ("metadata has both 'query_function' and 'sources'",
                  "judge call failed after 1 attempt(s)"):
        assert messages[start].filename == __file__, (start, messages[start].filename)


def test_a_warning_from_a_validation_a_guard_runs_names_the_line_that_called_the_guard(tmp_path):
    # a Guard awaits the validator on an event loop of its own: the warning is raised in a task
    # or a worker thread, and still names the caller's line (here, the helper's guard.validate)
    import conftest
    import guardrails
    from conftest import validate_in_guard

    import provenance_guard

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        validate_in_guard(GOOD, ScriptedJudge(), meta(embed_fn=None))
    [warning] = [w for w in caught if "embed_fn" in str(w.message)]
    internals = (provenance_guard.__file__.rsplit("/", 1)[0], guardrails.__file__.rsplit("/", 1)[0],
                 warnings.__file__.rsplit("/", 1)[0])
    assert not warning.filename.startswith(internals), warning.filename
    assert warning.filename == conftest.__file__


@pytest.mark.parametrize("key, hint", [
    ("embed_fn", "did you mean 'embed_function'?"),
    ("source", "did you mean 'sources'?"),
    ("chunksize", "did you mean 'chunk_size'?"),
    ("toxicity_threshold", None),  # another validator's key: named, no guess
])
def test_an_unknown_metadata_key_is_warned_with_the_closest_known_one(key, hint):
    from conftest import caught_warnings

    with caught_warnings() as messages:
        result = check(GOOD, meta(**{key: 1}))
    assert isinstance(result, PassResult)  # a warning, not an error: the key may be another's
    [message] = [m for m in messages if repr(key) in m]
    assert "not one ProvenanceLLM reads" in message and "embed_function" in message
    assert (hint in message) if hint else ("did you mean" not in message)


def test_the_keys_a_result_adds_are_not_warned_about():
    """Guardrails hands one validator's result metadata to the next: a second ProvenanceLLM
    sees "sentences" and "groundedness", which are ours."""
    from conftest import caught_warnings

    first = check(GOOD, meta())
    with caught_warnings() as messages:
        check(GOOD, first.metadata)
    assert not [m for m in messages if "not one ProvenanceLLM reads" in m]


@pytest.mark.parametrize("sources", [[], [""], ["", "  \n", "\t"]])
def test_sources_that_are_all_empty_are_no_sources_and_cost_nothing(sources):
    """Empty strings are read as ``[]`` is: the same reason, at once, nothing chunked,
    embedded or judged."""
    from provenance_guard.retrieval.index import INDEX_CACHE

    judge = ScriptedJudge()
    embedded = INDEX_CACHE.embedded_chunks
    report = ProvenanceLLM(llm_callable=judge).check(GOOD, {"sources": sources})
    [result] = report.sentences
    assert (str(result.label), result.verdict.reason) == ("unsupported", "no sources were given")
    assert not report.summary.sources_given and not report.passed
    assert judge.prompts == [] and INDEX_CACHE.embedded_chunks == embedded
