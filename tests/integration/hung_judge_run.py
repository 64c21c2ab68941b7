"""Run by test_hung_judge.py in a process of its own: validations at once, each of its own
text, through Guard from threads or through AsyncGuard, with a judge that never returns (a
plain callable, or a judge object's synchronous ``judge()``; ``answers``: a callable that
answers at once, for comparison), and a LiteLLM-judged validation started while they wait.
Prints one JSON line of what it saw, then exits: the test times the exit too.

    python hung_judge_run.py {callable|object|answers} {threads|async} COUNT DEADLINE URL
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from guardrails import AsyncGuard, Guard

from provenance_guard import ProvenanceLLM, Verdict

SOURCES = ["The Eiffel Tower is in Paris. It was finished in 1889.",
           "The Louvre opened in 1793. It houses the Mona Lisa.",
           "Mount Everest is the highest mountain above sea level."]
TEXT = ("The Eiffel Tower is in Paris. It was finished in 1889. The Louvre opened in 1793. "
        "It houses the Mona Lisa. Everest is the highest mountain. The tower is gold.")
NEVER = threading.Event()  # never set: whoever waits on it never returns


def hangs(prompt: str) -> str:
    NEVER.wait()
    return "yes"


class HangingJudge:
    def judge(self, claim, evidence, question=None) -> Verdict:
        NEVER.wait()
        return Verdict("supported", "never reached")


def reasons(outcome) -> list[str]:
    return [outcome.validation_summaries[0].failure_reason or ""] if (
        outcome.validation_summaries) else []


def main() -> None:
    kind, mode, count, deadline, url = sys.argv[1:6]
    count, deadline = int(count), float(deadline)
    judge = {"callable": hangs, "object": HangingJudge(), "answers": lambda prompt: "no"}[kind]
    metadata = {"sources": SOURCES}
    # the model and the index loaded first: what is measured is the wait, not a first load
    Guard().use(ProvenanceLLM(llm_callable="local", on_fail="noop")).validate(TEXT,
                                                                             metadata=metadata)
    litellm = Guard().use(ProvenanceLLM(llm_callable="openai/judge", on_fail="noop",
                                        llm_kwargs={"api_base": url, "api_key": "sk-test"}))
    litellm.validate(TEXT, metadata=metadata)  # LiteLLM's first call sets it up
    started = time.monotonic()
    litellm.validate(TEXT, metadata=metadata)
    normal = time.monotonic() - started
    texts = [f"{TEXT} It has {n + 2} floors." for n in range(count)]

    validator = ProvenanceLLM(llm_callable=judge, on_fail="noop", deadline=deadline)
    meanwhile: dict[str, float] = {}

    def litellm_meanwhile() -> None:
        time.sleep(min(1.0, deadline / 2))  # while every hung validation waits on its judge
        begun = time.monotonic()
        meanwhile["passed"] = litellm.validate(TEXT, metadata=metadata).validation_passed
        meanwhile["seconds"] = time.monotonic() - begun

    side = threading.Thread(target=litellm_meanwhile)
    started = time.monotonic()
    side.start()
    if mode == "threads":
        guard = Guard().use(validator)
        with ThreadPoolExecutor(max_workers=count) as pool:
            outcomes = list(pool.map(lambda text: guard.validate(text, metadata=metadata),
                                     texts))
    else:
        guard = AsyncGuard().use(validator)

        async def all_at_once():
            return await asyncio.gather(*(guard.validate(text, metadata=metadata)
                                          for text in texts))

        outcomes = asyncio.run(all_at_once())
    elapsed = time.monotonic() - started
    side.join()
    began = time.monotonic()
    after = Guard().use(validator).validate(TEXT, metadata=metadata)
    print(json.dumps({
        "elapsed": elapsed, "passed": [o.validation_passed for o in outcomes],
        "reasons": [r for o in outcomes for r in reasons(o)],
        "litellm_normal": normal, "litellm_meanwhile": meanwhile,
        "after": {"seconds": time.monotonic() - began, "passed": after.validation_passed,
                  "reasons": reasons(after)},
        # what the interpreter waits for at exit: threads that are not daemons
        "joined_at_exit": [t.name for t in threading.enumerate()
                           if not t.daemon and t is not threading.main_thread()],
        "printed_at": time.time()}), flush=True)


if __name__ == "__main__":
    main()
