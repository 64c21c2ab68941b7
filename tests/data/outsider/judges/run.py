"""Run the hostile-judge cases (cases.py) against provenance_guard and print a table.

    python run.py [--class NAME] [--kind KIND] [--case ID] [--json] [--jobs N]

Uses only the public API of provenance_guard, guardrails and the standard library.
Always exits 0: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import provenance_guard  # noqa: E402  (first: it keeps LiteLLM offline)
from provenance_guard import ProvenanceLLM  # noqa: E402

import cases as C  # noqa: E402

CLASSES = ["reply_argues", "controls_dodged", "pass_on_invalid", "judge_raises_or_blocks"]
IN_PROCESS_DEADLINE = 15.0
JR_DEADLINE = 3.0
MARGIN = 1.5           # a validation must return by deadline + MARGIN
PROMPT_S = 3.0         # the second, ordinary validation must take less than this
HELD_UP_S = 2.5        # the concurrent unrelated validation must take less than this
HARD_TIMEOUT = 60.0    # a subprocess still running then is killed (a wedge)

DEFAULTS = {
    "reply_argues": {"callable": {}, "litellm": {"structured_replies": "on"}},
    "controls_dodged": {"callable": {"control_statements": "on"},
                        "litellm": {"structured_replies": "on", "control_statements": "on"},
                        "object": {"control_statements": "on"}},
    "pass_on_invalid": {"callable": {"control_statements": "on", "pass_on_invalid": True},
                        "litellm": {"structured_replies": "on", "pass_on_invalid": True},
                        "object": {"control_statements": "on", "pass_on_invalid": True}},
    "judge_raises_or_blocks": {"callable": {}, "litellm": {}},
}


# ------------------------------------------------------------------ the fake LLM server

def _content_of(body: dict) -> str:
    return "\n".join(m.get("content") or "" for m in body.get("messages", [])
                     if isinstance(m.get("content"), str))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _send(self, status: int, data: bytes, ctype="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except Exception:
            return self._send(400, b'{"error": "bad request"}')
        model = str(body.get("model", "")).split("/")[-1]
        prompt = _content_of(body)
        if model == "honest":
            spec = {"judge": C.honest}
        else:
            try:
                spec = C.by_id(model)
            except KeyError:
                return self._send(404, b'{"error": {"message": "no such model"}}')
        mode = spec.get("http")
        if mode == "hang":
            time.sleep(120)
            return
        if mode == "reset":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if mode == "http500":
            return self._send(500, b'{"error": {"message": "internal"}}')
        if mode == "not_json":
            return self._send(200, b"<html><body>Supported!</body></html>", "text/html")
        if mode == "drip":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            for _ in range(120):
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(1)
            return
        if mode == "slow_ok":
            time.sleep(30)
        if mode == "huge":
            content = "[" * 30_000_000
        else:
            content = spec["judge"](prompt)
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        logprob = spec.get("logprob", -0.01)
        if logprob is not None and mode != "huge":
            import re
            toks = re.findall(r"\w+|\W", content)
            choice["logprobs"] = {"content": [
                {"token": t, "logprob": logprob, "bytes": list(t.encode()), "top_logprobs": []}
                for t in toks]}
        out = {"id": "cmpl-1", "object": "chat.completion", "created": int(time.time()),
               "model": body.get("model"), "choices": [choice],
               "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens":
                         max(1, len(content) // 4), "total_tokens": 0}}
        try:
            self._send(200, json.dumps(out).encode())
        except OSError:
            pass


def start_server() -> str:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/v1"


# ------------------------------------------------------------------ building a validator

def wrap_callable(behaviour):
    def judge(prompt, response_format=None):
        return behaviour(prompt)
    return judge


def make_validator(case: dict, kind: str, base: str | None, deadline: float):
    opts = dict(DEFAULTS[case["cls"]].get(kind, {}))
    opts.update(case.get("opts", {}))
    opts.setdefault("deadline", deadline)
    if kind == "callable":
        judge = case["judge"]
        if case["cls"] != "judge_raises_or_blocks":
            judge = wrap_callable(judge)
        return ProvenanceLLM(llm_callable=judge, **opts)
    if kind == "object":
        return ProvenanceLLM(llm_callable=case["obj"](), **opts)
    if kind == "litellm":
        kw = {"api_base": base, "api_key": "sk-none-dummy"}
        return ProvenanceLLM(llm_callable="openai/" + case["id"], llm_kwargs=kw, **opts)
    raise ValueError(kind)


def metadata_for(case: dict) -> dict:
    meta = {"sources": list(C.SOURCES)}
    meta.update(case.get("meta", {}))
    return meta


def validate(case: dict, validator) -> bool:
    """True when the validation passed."""
    if case.get("via_guard"):
        from guardrails import Guard
        guard = Guard()
        guard.configure(allow_metrics_collection=False)
        guard.use(validator)
        try:
            outcome = guard.validate(case["answer"], metadata=metadata_for(case))
        except Exception as error:  # on_fail="exception": a ValidationError is a fail
            if type(error).__name__ == "ValidationError":
                return False
            raise
        return bool(outcome.validation_passed)
    return bool(validator.check(case["answer"], metadata_for(case)).passed)


# ------------------------------------------------------------------ in-process classes

def run_in_process(case: dict, kind: str, base: str) -> dict:
    res = {"id": case["id"], "cls": case["cls"], "kind": kind, "expect": case["expect"],
           "why": case["why"]}
    box: dict = {}

    def go():
        t0 = time.monotonic()
        try:
            v = make_validator(case, kind, base, IN_PROCESS_DEADLINE)
            box["passed"] = validate(case, v)
        except BaseException as error:  # noqa: BLE001 - we measure everything
            box["raised"] = f"{type(error).__name__}: {str(error)[:200]}"
        box["elapsed"] = time.monotonic() - t0

    th = threading.Thread(target=go, daemon=True)
    th.start()
    th.join(IN_PROCESS_DEADLINE + MARGIN + 10)
    if th.is_alive():
        res.update(outcome="hang", elapsed=None)
    else:
        res["elapsed"] = round(box["elapsed"], 2)
        if "raised" in box:
            res["outcome"] = "raised"
            res["detail"] = box["raised"]
        else:
            res["outcome"] = "passed" if box["passed"] else "failed"
    if res.get("elapsed") and res["elapsed"] > IN_PROCESS_DEADLINE + MARGIN:
        res["late"] = True
    return score(case, res)


def detail_report(case: dict, kind: str, base: str) -> str:
    """Re-run one case and say what each sentence got (for the failing-case listing)."""
    try:
        v = make_validator(case, kind, base, IN_PROCESS_DEADLINE)
        r = v.check(case["answer"], metadata_for(case))
        return "; ".join(f"{s.sentence.text[:40]!r}->{s.label}"
                         f"({s.verdict.decided_by}; {str(s.verdict.reason)[:90]!r})"
                         for s in r.sentences)
    except BaseException as error:  # noqa: BLE001
        return f"{type(error).__name__}: {error}"


# ------------------------------------------------------------------ subprocess class

def worker(case_id: str, kind: str) -> None:
    import faulthandler
    import warnings
    warnings.simplefilter("ignore")
    faulthandler.dump_traceback_later(HARD_TIMEOUT - 10)  # where a wedge is stuck, to stderr
    case = C.by_id(case_id)
    base = start_server() if kind == "litellm" else None
    meta = {"sources": list(C.SOURCES)}

    def honest_a(prompt):
        return C.honest(prompt)

    def honest_b(prompt):
        return C.honest(prompt)

    out: dict = {}
    t = time.monotonic()
    out["warm_passed"] = ProvenanceLLM(llm_callable=honest_a, deadline=30).check(
        C.A_T, meta).passed
    if kind == "litellm":  # LiteLLM's import and first call are paid before the clock starts
        out["warm_passed"] &= ProvenanceLLM(
            llm_callable="openai/honest", deadline=30,
            llm_kwargs={"api_base": base, "api_key": "sk-none-dummy"}).check(C.A_T, meta).passed
    out["warm_s"] = round(time.monotonic() - t, 2)

    conc: dict = {}

    def concurrent():
        t0 = time.monotonic()
        try:
            conc["passed"] = ProvenanceLLM(llm_callable=honest_b, deadline=30).check(
                C.A_T3, meta).passed
        except BaseException as error:  # noqa: BLE001
            conc["raised"] = repr(error)[:200]
        conc["elapsed"] = round(time.monotonic() - t0, 2)

    cth = threading.Thread(target=concurrent, daemon=True)
    threading.Timer(0.5, cth.start).start()
    if case.get("sigint_after"):
        threading.Timer(case["sigint_after"],
                        lambda: os.kill(os.getpid(), signal.SIGINT)).start()

    t0 = time.monotonic()
    try:
        v = make_validator(case, kind, base, JR_DEADLINE)
        out["hostile"] = "passed" if validate(case, v) else "failed"
    except BaseException as error:  # noqa: BLE001
        out["hostile"] = "raised"
        out["raised_type"] = type(error).__name__
        out["detail"] = str(error)[:200]
    out["hostile_s"] = round(time.monotonic() - t0, 2)

    time.sleep(0.6)  # let the concurrent one start even if the hostile one returned at once
    cth.join(30)
    out["concurrent"] = dict(conc) if conc else {"elapsed": None, "note": "did not finish"}

    t1 = time.monotonic()
    try:
        if kind == "litellm":
            v2 = ProvenanceLLM(llm_callable="openai/honest", deadline=30,
                               llm_kwargs={"api_base": base, "api_key": "sk-none-dummy"})
        else:
            v2 = ProvenanceLLM(llm_callable=honest_a, deadline=30)
        out["second_passed"] = v2.check(C.A_T2, meta).passed
    except BaseException as error:  # noqa: BLE001
        out["second_raised"] = repr(error)[:200]
    out["second_s"] = round(time.monotonic() - t1, 2)
    print("RESULT:" + json.dumps(out), flush=True)


def run_subprocess(case: dict, kind: str) -> dict:
    res = {"id": case["id"], "cls": case["cls"], "kind": kind, "expect": case["expect"],
           "why": case["why"]}
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", case["id"], kind]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=HARD_TIMEOUT)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
    res["wall_s"] = round(time.monotonic() - t0, 1)
    res["rc"] = proc.returncode
    if stderr.strip():
        os.makedirs(os.path.join(HERE, "logs"), exist_ok=True)
        with open(os.path.join(HERE, "logs", f"{case['id']}.{kind}.stderr"), "w") as fh:
            fh.write(stderr[-200_000:])
        res["stderr_log"] = f"logs/{case['id']}.{kind}.stderr"
    line = next((ln for ln in stdout.splitlines() if ln.startswith("RESULT:")), None)
    if line is None:
        res["outcome"] = "hang" if timed_out else "dead"
        res["detail"] = (stderr.strip().splitlines() or ["(no output)"])[-1][:300]
        return score(case, res)
    w = json.loads(line[len("RESULT:"):])
    res["worker"] = w
    res["elapsed"] = w["hostile_s"]
    res["outcome"] = w["hostile"]
    if w["hostile"] == "raised":
        res["detail"] = f"{w['raised_type']}: {w.get('detail', '')}"
        res["raised_type"] = w["raised_type"]
    problems = []
    if timed_out:
        problems.append(f"process did not exit within {HARD_TIMEOUT:.0f} s after its result")
    elif proc.returncode != 0:
        problems.append(f"process exit status {proc.returncode}")
    if w["hostile_s"] > JR_DEADLINE + MARGIN and not (
            case.get("ok_raise") and res.get("raised_type") in case["ok_raise"]):
        res["late"] = True
    conc = w["concurrent"]
    if conc.get("elapsed") is None or conc["elapsed"] > HELD_UP_S:
        res["held_up"] = True
    if conc.get("raised") or conc.get("passed") is False:
        problems.append(f"concurrent validation: {conc}")
    if "second_raised" in w or not w.get("second_passed"):
        problems.append("second validation: " + w.get("second_raised", "failed"))
    if w["second_s"] > PROMPT_S:
        res["second_slow"] = True
    if problems:
        res["problems"] = problems
    return score(case, res)


# ------------------------------------------------------------------ scoring

def score(case: dict, res: dict) -> dict:
    ok_raise = case.get("ok_raise", ())
    out = res["outcome"]
    res["fail_open"] = case["expect"] == "must_fail" and out == "passed"
    res["false_alarm"] = case["expect"] == "must_pass" and out in ("failed",) or (
        case["expect"] == "must_pass" and out == "raised")
    res["hang"] = (out == "hang" or bool(res.get("late")) or bool(res.get("held_up"))
                   or bool(res.get("second_slow"))
                   or any("did not exit" in p for p in res.get("problems", [])))
    raised_bad = out == "raised" and res.get("raised_type", res.get("detail", "").split(":")[0]) \
        not in ok_raise
    res["crash"] = (out == "dead" or raised_bad
                    or any("did not exit" not in p for p in res.get("problems", [])))
    res["bad"] = res["fail_open"] or res["false_alarm"] or res["hang"] or res["crash"]
    return res


def table(results: list[dict]) -> str:
    lines = []
    head = f"{'class':<24} {'kind':<9} {'cases':>5} {'fail-open':>9} {'false-al':>8} " \
           f"{'hangs':>5} {'crashes':>7}"
    lines.append(head)
    lines.append("-" * len(head))
    for cls in CLASSES:
        rows = [r for r in results if r["cls"] == cls]
        for kind in ("callable", "litellm", "object"):
            rs = [r for r in rows if r["kind"] == kind]
            if not rs:
                continue
            nf = sum(r["expect"] == "must_fail" for r in rs)
            np_ = len(rs) - nf
            lines.append(
                f"{cls:<24} {kind:<9} {len(rs):>5} "
                f"{sum(r['fail_open'] for r in rs):>5}/{nf:<3} "
                f"{sum(r['false_alarm'] for r in rs):>4}/{np_:<3} "
                f"{sum(r['hang'] for r in rs):>5} {sum(r['crash'] for r in rs):>7}")
    return "\n".join(lines)


def describe(r: dict) -> str:
    tags = [t for t in ("fail_open", "false_alarm", "hang", "crash") if r[t]]
    bits = [f"{r['id']} [{r['kind']}] {','.join(tags)}: {r['outcome']}"]
    if r.get("elapsed") is not None:
        bits.append(f"in {r['elapsed']} s")
    if r.get("detail"):
        bits.append(f"({r['detail'][:160]})")
    if r.get("held_up"):
        bits.append(f"concurrent took {r['worker']['concurrent'].get('elapsed')} s")
    if r.get("second_slow"):
        bits.append(f"second took {r['worker']['second_s']} s")
    for p in r.get("problems", []):
        bits.append(f"[{p[:160]}]")
    if r.get("stderr_log") and r["outcome"] in ("hang", "dead"):
        bits.append(f"(stderr: {r['stderr_log']})")
    if r.get("sentences"):
        bits.append("\n      " + r["sentences"][:400])
    return " ".join(bits) + f"\n      why: {r['why']}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--class", dest="cls", choices=CLASSES)
    ap.add_argument("--kind", choices=["callable", "litellm", "object"])
    ap.add_argument("--case")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--worker", nargs=2, metavar=("CASE", "KIND"))
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    import warnings
    warnings.simplefilter("ignore")
    base = start_server()
    todo = [(c, k) for c in C.CASES for k in c["kinds"]
            if (not args.cls or c["cls"] == args.cls) and (not args.kind or k == args.kind)
            and (not args.case or c["id"] == args.case)]
    results = []
    t0 = time.monotonic()
    for c, k in todo:
        if c["cls"] != "judge_raises_or_blocks":
            r = run_in_process(c, k, base)
            if r["bad"] and r["outcome"] != "hang":
                r["sentences"] = detail_report(c, k, base)
            results.append(r)
            if not args.json:
                print(("BAD  " if r["bad"] else "ok   ") + f"{c['id']} [{k}] {r['outcome']}",
                      file=sys.stderr, flush=True)
    sub = [(c, k) for c, k in todo if c["cls"] == "judge_raises_or_blocks"]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda ck: run_subprocess(*ck), sub):
            results.append(r)
            if not args.json:
                print(("BAD  " if r["bad"] else "ok   ") + f"{r['id']} [{r['kind']}] "
                      f"{r['outcome']} {r.get('elapsed')}", file=sys.stderr, flush=True)
    total = round(time.monotonic() - t0, 1)
    if args.json:
        print(json.dumps({"seconds": total, "results": results}, indent=1, default=str))
        return
    print(table(results))
    print(f"\n{len(results)} runs in {total} s. Columns: fail-open = must_fail cases that "
          "passed / must_fail cases; false-al = must_pass cases that failed / must_pass "
          "cases; hangs = past deadline + margin, held up, slow second validation or "
          "subprocess timeout; crashes = exception reaching the caller (other than the "
          "documented ones), dead process, or the process no longer serving.\n")
    bad = [r for r in results if r["bad"]]
    for cls in CLASSES:
        rs = [r for r in bad if r["cls"] == cls]
        if rs:
            print(f"== {cls}: {len(rs)} failing runs")
            for r in rs:
                print("  " + describe(r))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        main()  # a worker exits as any program would: its exit is part of the measurement
    else:
        try:
            main()
        finally:
            sys.stdout.flush()
        os._exit(0)  # exit 0 always, without waiting for anything a case left running
