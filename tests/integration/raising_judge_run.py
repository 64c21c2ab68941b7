"""Run by test_raising_judges.py in a process of its own: one validation whose judge raises
what is not an Exception (or, ``block``, an ``async def`` judge that blocks its loop with
``time.sleep``), with an honest validation started from another thread while it runs, then an
honest validation after it. Prints one JSON line of what it saw.

    python raising_judge_run.py {plain|async|object} {SystemExit|KeyboardInterrupt|...|block}
"""

from __future__ import annotations

import json
import sys
import threading
import time

from provenance_guard import ProvenanceLLM, Verdict

SOURCES = ["The museum opened in 1901. It holds four thousand paintings."]
TEXT = "The museum opened in 1901."
DEADLINE = 4.0
THROWN = {"SystemExit": SystemExit(3), "KeyboardInterrupt": KeyboardInterrupt(),
          "GeneratorExit": GeneratorExit(), "BaseException": BaseException("its own")}


def honest(prompt: str) -> str:
    return '{"verdict": "supported", "reason": "[1] says it opened in 1901."}'


def embed(texts):  # no model load: what is measured is the judge's effect
    return [[float(len(t) % 7 + 1), float(t.count("1901") + 1), 1.0] for t in texts]


def main() -> None:
    kind, thrown = sys.argv[1:3]

    def plain(prompt):
        raise THROWN[thrown]

    async def awaited(prompt):
        if thrown == "block":
            time.sleep(30)  # blocks the loop it runs on
        raise THROWN[thrown]

    class Raising:
        def judge(self, claim, evidence, question=None) -> Verdict:
            raise THROWN[thrown]

    class Label(str):  # a label whose comparison raises: run on the validation loop's thread
        def __eq__(self, other):
            raise THROWN[thrown]

        __hash__ = str.__hash__

    class Hostile:
        def judge(self, claim, evidence, question=None) -> Verdict:
            return Verdict(Label("supported"), "[1] says so.")

    judge = {"plain": plain, "async": awaited, "object": Raising(), "verdict": Hostile()}[kind]
    metadata = {"sources": SOURCES, "embed_function": embed}
    seen: dict = {}

    def validate(name, validator):
        started = time.monotonic()
        try:
            result = validator.validate(TEXT, metadata)
            seen[name] = {"outcome": str(result.outcome.value),
                          "reason": str(getattr(result, "error_message", "") or "")}
        except BaseException as error:  # noqa: BLE001 - what reached the caller is the finding
            seen[name] = {"raised": f"{type(error).__name__}: {error}"}
        seen[name]["seconds"] = time.monotonic() - started
        seen[name]["ended"] = time.monotonic()

    # the honest validator is made (and its first validation run) before: its own pace
    validate("honest before", ProvenanceLLM(llm_callable=honest, batch_size=1, deadline=DEADLINE))
    beside = threading.Thread(target=lambda: (time.sleep(0.3), validate(
        "beside", ProvenanceLLM(llm_callable=honest, batch_size=1, deadline=DEADLINE))))
    beside.start()
    validate("raising", ProvenanceLLM(llm_callable=judge, batch_size=1, deadline=DEADLINE))
    beside.join()
    validate("after", ProvenanceLLM(llm_callable=honest, batch_size=1, deadline=DEADLINE))
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    main()
