"""Run the outsider's hostile cases against provenance_guard's public API.

    python run.py [--judge rules|llm|all] [--json] [--only CLASS] [--case ID] [--verbose]
                  [--cases FILE]

Prints, per class and judge kind: cases, fail-open (a must_fail case that passed), false alarms
(a must_pass case that failed), hangs (no answer within the per-case timeout) and crashes (an
exception), then the ids of every case that went wrong. Exit code 0 always: it is a measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scripted_judge  # noqa: E402  (stdlib-only scripted server, this folder)

from guardrails import Guard  # noqa: E402
from provenance_guard import ProvenanceLLM, Report  # noqa: E402

DEADLINE = 60.0          # the validator's own deadline for one validation (docs: `deadline`)
CASE_TIMEOUT = 90.0      # the runner's: past this, the case counts as a hang
CLI_TIMEOUT = 150.0
PROVENANCE = str(Path(sys.executable).with_name("provenance"))

_validators: dict = {}
API_BASE = ""


def validator_for(kind: str, script: str, options: dict) -> ProvenanceLLM:
    options = dict(options)
    options.pop("via", None)
    options.pop("cli", None)
    if kind == "rules":
        # The cascade is the rule checker itself: it only means something before an LLM.
        options.pop("cascade_verbatim", None)
        options.pop("cascade_contradictions", None)
    key = (kind, script, json.dumps(options, sort_keys=True))
    if key not in _validators:
        if kind == "rules":
            _validators[key] = ProvenanceLLM(llm_callable="local", deadline=DEADLINE, **options)
        else:
            _validators[key] = ProvenanceLLM(
                llm_callable=f"openai/{script}", deadline=DEADLINE, structured_replies="on",
                llm_kwargs={"api_base": API_BASE, "api_key": "none"}, **options)
    return _validators[key]


def sentence_rows(metadata: dict) -> list[dict]:
    rows = []
    for s in (metadata or {}).get("sentences") or []:
        ev = (s.get("evidence") or [{}])
        said = ev[0].get("said") if ev else None
        verdict = s.get("verdict")
        rows.append({"text": s.get("text"), "verdict": str(getattr(verdict, "value", verdict)),
                     "not_a_claim": s.get("not_a_claim"), "decided_by": s.get("decided_by"),
                     "citation": (s.get("citation") or {}).get("status"),
                     "said_turn": said.get("turn") if said else None, "kind": s.get("kind"),
                     "reason": (s.get("reason") or "")[:160]})
    return rows


def run_api(case: dict, kind: str) -> dict:
    options = case.get("options") or {}
    script = case.get("script", "honest")
    metadata = {"sources": case["sources"]}
    if case.get("messages") is not None:
        metadata["messages"] = case["messages"]
    validator = validator_for(kind, script, options)
    if options.get("via") == "guard":
        guard = Guard().use(validator)
        try:
            guard.configure(allow_metrics_collection=False)
        except Exception:
            pass
        guard.validate(case["text"], metadata=metadata)
        report = Report.from_guard(guard)
        return {"passed": bool(report.passed), "sentences": sentence_rows(report.metadata())}
    result = validator.validate(case["text"], metadata)
    outcome = getattr(result, "outcome", None)
    outcome = str(getattr(outcome, "value", outcome)).lower()
    if outcome not in ("pass", "fail"):
        raise RuntimeError(f"validate() returned {type(result).__name__} with outcome {outcome!r}")
    return {"passed": outcome == "pass",
            "sentences": sentence_rows(getattr(result, "metadata", None) or {})}


def run_cli(case: dict, kind: str) -> dict:
    options = case.get("options") or {}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [PROVENANCE, "check", "--deadline", str(DEADLINE), "--json"]
        for i, src in enumerate(case["sources"]):
            path = Path(tmp, f"source{i + 1}.txt")
            path.write_text(src, encoding="utf-8")
            cmd += ["--source", str(path)]
        text = Path(tmp, "answer.txt")
        text.write_text(case["text"], encoding="utf-8")
        cmd += ["--text", str(text)]
        if case.get("messages") is not None:
            chat = Path(tmp, "chat.json")
            chat.write_text(json.dumps(case["messages"]), encoding="utf-8")
            cmd += ["--messages", str(chat)]
        if options.get("citations"):
            cmd += ["--citations", options["citations"]]
        if options.get("top_k"):
            cmd += ["--top-k", str(options["top_k"])]
        if kind == "llm":
            cmd += ["--model", f"openai/{case.get('script', 'honest')}", "--api-base", API_BASE,
                    "--api-key", "none", "--structured-replies", "on"]
            if options.get("cascade_verbatim"):
                cmd += ["--cascade"]
        env = dict(os.environ, PYTHONWARNINGS="ignore")
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CLI_TIMEOUT, env=env)
        sentences = []
        try:
            data = json.loads(proc.stdout)
            sentences = sentence_rows(data if isinstance(data, dict) else {})
        except Exception:
            pass
        if proc.returncode == 2:
            raise RuntimeError(f"provenance check exited 2: {proc.stderr.strip()[-300:]}")
        return {"passed": proc.returncode == 0, "exit": proc.returncode, "sentences": sentences}


def run_one(case: dict, kind: str) -> dict:
    scripted_judge.CURRENT_CASE.clear()
    scripted_judge.CURRENT_CASE.update(case)
    box: dict = {}

    def work():
        try:
            fn = run_cli if (case.get("options") or {}).get("cli") else run_api
            box["out"] = fn(case, kind)
        except subprocess.TimeoutExpired:
            box["hang"] = True
        except BaseException as error:  # noqa: BLE001 - a crash is a measurement
            box["error"] = f"{type(error).__name__}: {error}"[:300]

    started = time.monotonic()
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(CASE_TIMEOUT if not (case.get("options") or {}).get("cli") else CLI_TIMEOUT + 10)
    seconds = round(time.monotonic() - started, 2)
    row = {"id": case["id"], "class": case["class"], "expect": case["expect"], "judge": kind,
           "script": case.get("script", "honest") if kind == "llm" else None,
           "seconds": seconds, "why": case.get("why")}
    if worker.is_alive() or box.get("hang"):
        row["status"] = "hang"
    elif "error" in box:
        row["status"] = "crash"
        row["error"] = box["error"]
    else:
        out = box["out"]
        row.update(out)
        ok = out["passed"] if case["expect"] == "must_pass" else not out["passed"]
        if ok:
            row["status"] = "ok"
        else:
            row["status"] = "fail_open" if case["expect"] == "must_fail" else "false_alarm"
    return row


def main() -> int:
    global API_BASE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--judge", choices=["rules", "llm", "all"], default="all")
    parser.add_argument("--json", action="store_true", help="print every result as JSON lines")
    parser.add_argument("--only", help="run one class only")
    parser.add_argument("--case", action="append", help="run this case id (repeatable)")
    parser.add_argument("--verbose", action="store_true", help="show sentences of wrong cases")
    parser.add_argument("--dump-prompts", metavar="FILE",
                        help="write every prompt the scripted judge received, with its reply")
    parser.add_argument("--cases", type=Path, default=HERE / "cases.jsonl",
                        help="the cases to run (default: this folder's; ../language/run.py "
                             "passes its own)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    API_BASE = scripted_judge.start()
    kinds = ["rules", "llm"] if args.judge == "all" else [args.judge]

    cases = [json.loads(line) for line in args.cases.read_text().splitlines()
             if line.strip()]
    if args.only:
        cases = [c for c in cases if c["class"] == args.only]
    if args.case:
        cases = [c for c in cases if c["id"] in args.case]

    rows = []
    started = time.monotonic()
    for case in cases:
        for kind in kinds:
            if kind not in case.get("judges", ["rules", "llm"]):
                continue
            row = run_one(case, kind)
            rows.append(row)
            if args.json:
                print(json.dumps(row, ensure_ascii=False), flush=True)
            elif row["status"] != "ok":
                print(f"  {row['status']:<11} {kind:<5} {row['id']}", file=sys.stderr,
                      flush=True)
    total = round(time.monotonic() - started, 1)

    table = defaultdict(lambda: defaultdict(int))
    for r in rows:
        t = table[(r["class"], r["judge"])]
        t["cases"] += 1
        t[r["expect"]] += 1
        t[r["status"]] += 1
    lines = [f"{'class':<26}{'judge':<7}{'cases':>6}{'fail':>6}{'pass':>6}"
             f"{'fail-open':>11}{'false-alarm':>13}{'hangs':>7}{'crashes':>9}"]
    classes = []
    for r in rows:
        if r["class"] not in classes:
            classes.append(r["class"])
    grand = defaultdict(int)
    for cls in classes:
        for kind in kinds:
            t = table.get((cls, kind))
            if not t:
                continue
            lines.append(f"{cls:<26}{kind:<7}{t['cases']:>6}{t['must_fail']:>6}"
                         f"{t['must_pass']:>6}{t['fail_open']:>11}{t['false_alarm']:>13}"
                         f"{t['hang']:>7}{t['crash']:>9}")
            for k, v in t.items():
                grand[(kind, k)] += v
    for kind in kinds:
        lines.append(f"{'ALL':<26}{kind:<7}{grand[(kind, 'cases')]:>6}"
                     f"{grand[(kind, 'must_fail')]:>6}{grand[(kind, 'must_pass')]:>6}"
                     f"{grand[(kind, 'fail_open')]:>11}{grand[(kind, 'false_alarm')]:>13}"
                     f"{grand[(kind, 'hang')]:>7}{grand[(kind, 'crash')]:>9}")
    out = sys.stderr if args.json else sys.stdout
    print("\n".join(lines), file=out)
    print(f"\n{len(rows)} runs in {total} s (fail = must_fail cases, pass = must_pass cases)",
          file=out)
    wrong = [r for r in rows if r["status"] != "ok"]
    if wrong:
        print("\nwrong cases:", file=out)
        for r in wrong:
            extra = f" script={r['script']}" if r.get("script") else ""
            print(f"  [{r['status']}] {r['judge']}{extra} {r['id']}: {r.get('why', '')}",
                  file=out)
            if r.get("error"):
                print(f"      error: {r['error']}", file=out)
            if args.verbose:
                for s in r.get("sentences") or []:
                    print(f"      - {s['verdict']}/{s['decided_by']}"
                          f"{' said turn ' + str(s['said_turn']) if s['said_turn'] else ''}"
                          f"{' not_a_claim=' + s['not_a_claim'] if s['not_a_claim'] else ''}"
                          f"{' cite=' + str(s['citation']) if s['citation'] not in (None, 'none') else ''}"
                          f" | {s['text']} | {s['reason']}", file=out)
    if args.dump_prompts:
        with open(args.dump_prompts, "w", encoding="utf-8") as fh:
            for entry in scripted_judge.REQUEST_LOG:
                fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    os._exit(0)  # abandoned hung validations must not keep the process alive


if __name__ == "__main__":
    main()
