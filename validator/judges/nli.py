"""Any Hugging Face sequence-classification checkpoint for NLI or groundedness as a judge:
DeBERTa-v3 NLI cross-encoders, HHEM-2.1-Open, MiniCheck's RoBERTa/DeBERTa.

The premise is the evidence (the passages joined), the hypothesis the claim. Evidence longer
than the model's window is cut into overlapping windows by the tokenizer itself
(``return_overflowing_tokens``), every window is scored, and the claim's verdict comes from the
window that backs it most (max aggregation, as MiniCheck and LettuceDetect do).

Labels come from the checkpoint's own ``id2label`` names. Three-way models: entailment ->
supported, neutral -> unsupported, contradiction -> contradicted (by the most likely label).
Two-way models (supported/unsupported, consistent/hallucinated, or plain ``LABEL_0``/``LABEL_1``
where 1 is supported, the convention of MiniCheck and HHEM): supported when the probability of
the supporting label reaches ``threshold``. Any other names raise ``ConfigurationError``.

Models load from a local path or the local Hugging Face cache only (``local_files_only``): a
judge never downloads. They load on first use, once per process, and a lock serialises the
tokenizer and the model, so the judge is safe from threads.
"""

from __future__ import annotations

import numbers
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError
from ..types import BY_FALLBACK, BY_MODEL, CONTRADICTED, INVALID, SUPPORTED, UNSUPPORTED, Evidence, Verdict

# Label names as the checkpoints spell them, lower-cased with everything but letters and digits
# removed ("NOT_ENTAILMENT" -> "notentailment").
_NAMES = {
    SUPPORTED: {"entailment", "entailed", "entails", "supported", "support", "consistent",
                "factual", "grounded", "faithful"},
    UNSUPPORTED: {"neutral", "unsupported", "notsupported", "notentailment", "nonentailment",
                  "hallucinated", "hallucination", "inconsistent", "notgrounded", "unfaithful"},
    CONTRADICTED: {"contradiction", "contradicted", "contradicts", "contradict"},
}
_GENERIC_TWO_WAY = {"label0": UNSUPPORTED, "label1": SUPPORTED, "0": UNSUPPORTED, "1": SUPPORTED}


def label_map(id2label: dict, num_labels: int) -> dict[int, str]:
    """Our label for each of the model's class indexes, read from its label names; raises
    ``ConfigurationError`` when the names do not say which class is which."""
    raw = {int(i): name for i, name in (id2label or {}).items()}
    names = {i: "".join(ch for ch in str(name).lower() if ch.isalnum()) for i, name in raw.items()}
    if sorted(names) != list(range(num_labels)) or num_labels not in (2, 3):
        raise ConfigurationError(
            f"an NLI judge needs a classifier with 2 or 3 named labels; this checkpoint has "
            f"{num_labels} ({id2label!r}). Use an NLI or groundedness checkpoint (e.g. a DeBERTa-v3 "
            "NLI cross-encoder, HHEM-2.1-Open, MiniCheck)."
        )
    ours: dict[int, str] = {}
    for i, name in names.items():
        found = [label for label, spellings in _NAMES.items() if name in spellings]
        if not found and num_labels == 2:
            found = [_GENERIC_TWO_WAY[name]] if name in _GENERIC_TWO_WAY else []
        if not found:
            known = sorted(set().union(*_NAMES.values()))
            raise ConfigurationError(
                f"the checkpoint's label {raw[i]!r} (class {i}) is "
                f"not a label an NLI judge knows; known names: {', '.join(known)} (and LABEL_0/"
                "LABEL_1 for two-way models, 1 = supported). Set id2label in the checkpoint's "
                "config.json to name its classes."
            )
        ours[i] = found[0]
    wanted = {SUPPORTED, UNSUPPORTED} if num_labels == 2 else {SUPPORTED, UNSUPPORTED, CONTRADICTED}
    if num_labels == 2 and set(ours.values()) == {SUPPORTED, CONTRADICTED}:
        ours = {i: UNSUPPORTED if label == CONTRADICTED else label for i, label in ours.items()}
    if set(ours.values()) != wanted:
        raise ConfigurationError(
            f"the checkpoint's labels {id2label!r} do not name one class for each of "
            f"{', '.join(sorted(wanted))}; an NLI judge cannot tell which is which."
        )
    return ours


@dataclass
class _Loaded:
    tokenizer: Any  # a transformers fast tokenizer
    model: Any  # a transformers sequence classifier
    lock: threading.Lock
    window: int  # tokens the model reads at once


_LOADED: dict[tuple, _Loaded] = {}  # one model per (checkpoint, code, device, window)
_LOADING = threading.Lock()


def _missing(model: str, error: BaseException) -> ConfigurationError:
    first_line = (str(error).strip().splitlines() or [""])[0][:200]
    return ConfigurationError(
        f"cannot load the NLI checkpoint {model!r} from a local folder or the local Hugging Face "
        f"cache ({type(error).__name__}: {first_line}). The judge never downloads: fetch it "
        "once where the network is allowed, e.g. "
        f"`hf download {model}` (or `huggingface-cli download {model}`), or pass the path of a "
        "folder holding config.json, the weights and the tokenizer."
    )


class NLIJudge:
    """A sequence-classification checkpoint as a judge (see the module docstring).

    ``model``: a folder, or a model name in the local Hugging Face cache.
    ``threshold``: for two-way models, the probability of the supporting class at which a
    claim is supported. ``batch_size``: windows per forward pass. ``max_length``: tokens per
    window (default: the tokenizer's, capped by the model's positions). ``stride``: tokens of
    evidence two neighbouring windows share. ``trust_remote_code``: for checkpoints that ship
    their own model code (HHEM-2.1-Open); off unless you trust it.
    """

    computes = True  # a forward pass here: the validation waits for it before it returns

    def __init__(self, model: str | os.PathLike, threshold: float = 0.5, batch_size: int = 16,
                 max_length: int | None = None, stride: int = 64, device: str = "cpu",
                 trust_remote_code: bool = False):
        if not isinstance(model, (str, os.PathLike)) or not str(model).strip():
            raise ConfigurationError(f"NLIJudge needs a checkpoint folder or a model name in the "
                                     f"local Hugging Face cache; got {model!r}.")
        if (isinstance(threshold, bool) or not isinstance(threshold, numbers.Real)
                or not 0 < threshold < 1):
            raise ConfigurationError(f"NLIJudge's threshold must be a number in (0, 1); got "
                                     f"{threshold!r}.")
        for name, value, low in (("batch_size", batch_size, 1), ("stride", stride, 0),
                                 ("max_length", 64 if max_length is None else max_length, 16)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
                raise ConfigurationError(f"NLIJudge's {name} must be a whole number >= {low}; got "
                                         f"{value!r}.")
        self.model: str = os.fspath(model)
        self.threshold: float = float(threshold)
        self.batch_size: int = int(batch_size)
        self.max_length: int | None = max_length
        self.stride: int = int(stride)
        self.device: str = device
        self.trust_remote_code: bool = bool(trust_remote_code)
        # The labels are read now, from config.json alone (no weights), so a checkpoint that is
        # missing or not a classifier we understand is refused when the guard is built.
        from transformers import AutoConfig

        try:
            config = AutoConfig.from_pretrained(self.model, local_files_only=True,
                                                trust_remote_code=self.trust_remote_code)
        except (OSError, ValueError) as error:
            raise _missing(self.model, error) from None
        self.labels: dict[int, str] = label_map(getattr(config, "id2label", None) or {},
                                getattr(config, "num_labels", 0))

    def _loaded(self) -> _Loaded:
        key = (os.path.abspath(self.model) if os.path.isdir(self.model) else self.model,
               self.trust_remote_code, self.device, self.max_length)
        with _LOADING:
            if key not in _LOADED:
                _LOADED[key] = self._load()
            return _LOADED[key]

    def _load(self) -> _Loaded:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        options = {"local_files_only": True, "trust_remote_code": self.trust_remote_code}
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.model, **options)
            model = AutoModelForSequenceClassification.from_pretrained(self.model, **options)
        except (OSError, ValueError) as error:
            raise _missing(self.model, error) from None
        if not getattr(tokenizer, "is_fast", False):
            raise ConfigurationError(f"the checkpoint {self.model!r} has no fast tokenizer "
                                     "(tokenizer.json), which the NLI judge needs to cut long "
                                     "evidence into windows.")
        model.eval().to(self.device)
        positions = getattr(model.config, "max_position_embeddings", None) or 512
        window = min(int(tokenizer.model_max_length), positions)
        if self.max_length is not None:
            window = min(window, int(self.max_length))
        return _Loaded(tokenizer, model, threading.Lock(), window)

    def ready(self) -> None:
        """Load the model and its tokenizer (once a process)."""
        self._loaded()

    def judge(self, claim: str, evidence: Sequence[Evidence], question: str | None = None
              ) -> Verdict:
        return self.judge_batch([(claim, evidence)], question)[0]

    def judge_batch(self, items: Sequence[tuple[str, Sequence[Evidence]]],
                    question: str | None = None) -> list[Verdict]:
        """Every window of every item, ``batch_size`` windows per forward pass."""
        loaded = self._loaded()
        verdicts: list[Verdict | None] = [None] * len(items)
        claims, documents, where = [], [], []
        for i, (claim, evidence) in enumerate(items):
            if not evidence:
                verdicts[i] = Verdict(UNSUPPORTED, "no evidence was retrieved", 0.0, BY_MODEL)
                continue
            claims.append(claim)
            documents.append("\n".join(e.text for e in evidence))
            where.append(i)
        if claims:
            with loaded.lock:  # one tokenizer and one model for every thread of the process
                rows = self._probabilities(loaded, claims, documents)
            for n, windows in enumerate(rows):
                verdicts[where[n]] = self._verdict(windows)
        return verdicts  # type: ignore[return-value]

    def _probabilities(self, loaded: _Loaded, claims: list[str], documents: list[str]
                       ) -> list[list[list[float]] | str]:
        """Per claim, the class probabilities of each of its windows (or why it has none)."""
        import torch

        tokenizer, window = loaded.tokenizer, loaded.window
        pairs: list[tuple[int, str, str, int]] = []
        rows: list[list[list[float]] | str] = [[] for _ in claims]
        for n, claim in enumerate(claims):
            claim_tokens = len(tokenizer(claim, add_special_tokens=False)["input_ids"])
            room = window - claim_tokens - tokenizer.num_special_tokens_to_add(pair=True)
            if room < 8:  # not even a few words of evidence would fit beside it
                rows[n] = (f"the claim is {claim_tokens} tokens long; the model reads "
                           f"{window} at once, too few to judge it against any evidence")
                continue
            pairs.append((n, claim, documents[n], room))
        for start in range(0, len(pairs), self.batch_size):
            chunk = pairs[start:start + self.batch_size]
            encoded = tokenizer([claim for _, claim, _, _ in chunk],
                                [doc for _, _, doc, _ in chunk],
                                truncation="only_second", max_length=window,
                                stride=min([self.stride] + [room // 2 for *_, room in chunk]),
                                return_overflowing_tokens=True, padding=True,
                                return_tensors="pt")
            owner = encoded.pop("overflow_to_sample_mapping").tolist()
            inputs = {k: v.to(self.device) for k, v in encoded.items()
                      if k in ("input_ids", "attention_mask", "token_type_ids")}
            probabilities = []
            with torch.inference_mode():
                count = inputs["input_ids"].shape[0]
                for first in range(0, count, self.batch_size):
                    part = {k: v[first:first + self.batch_size] for k, v in inputs.items()}
                    logits = loaded.model(**part).logits
                    probabilities.extend(torch.softmax(logits.float(), dim=-1).tolist())
            for sample, probs in zip(owner, probabilities, strict=True):
                rows[chunk[sample][0]].append(probs)  # type: ignore[union-attr]
        return rows

    def _verdict(self, windows: list[list[float]] | str) -> Verdict:
        """The verdict of the window that backs the claim most; its ``probability`` is the
        model's for the verdict's own class (``min_support_probability`` holds a supported
        one to it)."""
        if isinstance(windows, str):
            return Verdict(INVALID, windows, None, BY_FALLBACK)
        index = {label: i for i, label in self.labels.items()}
        best = max(windows, key=lambda p: p[index[SUPPORTED]])
        score = round(float(best[index[SUPPORTED]]), 4)
        count = f"{len(windows)} window{'s' if len(windows) > 1 else ''}"
        if len(self.labels) == 2:
            if score >= self.threshold:
                return Verdict(SUPPORTED, f"entailment probability {score:.2f} >= threshold "
                               f"{self.threshold} (best of {count})", score, BY_MODEL,
                               probability=score)
            return Verdict(UNSUPPORTED, f"entailment probability {score:.2f} < threshold "
                           f"{self.threshold} (best of {count})", score, BY_MODEL,
                           probability=round(1 - score, 4))
        if max(range(len(best)), key=best.__getitem__) == index[SUPPORTED]:
            return Verdict(SUPPORTED, f"entailment {score:.2f} (best of {count})", score, BY_MODEL,
                           probability=score)
        contradicting = [p for p in windows
                         if max(range(len(p)), key=p.__getitem__) == index[CONTRADICTED]]
        if contradicting:
            worst = max(p[index[CONTRADICTED]] for p in contradicting)
            return Verdict(CONTRADICTED, f"contradiction {worst:.2f} (of {count}; entailment "
                           f"at most {score:.2f})", score, BY_MODEL,
                           probability=round(float(worst), 4))
        return Verdict(UNSUPPORTED, f"neutral: entailment at most {score:.2f} (of {count})",
                       score, BY_MODEL, probability=round(float(best[index[UNSUPPORTED]]), 4))
