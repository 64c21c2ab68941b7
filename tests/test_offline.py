"""Nothing reaches the network at import or during validation with a callable judge, with the
real default embedder. A child process records every connection attempt with an audit hook."""

import json
import subprocess
import sys
import textwrap

from conftest import REPO

CHILD = textwrap.dedent("""
    import json, sys
    attempts = []
    def hook(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
            attempts.append(f"{event} {args!r}"[:200])
    sys.addaudithook(hook)

    import provenance_guard
    from guardrails import Guard
    from provenance_guard import ProvenanceLLM
    after_import = list(attempts)

    sources = ["The Eiffel Tower is in Paris. It was finished in 1889."]
    text = "The Eiffel Tower is in Paris. It was painted gold."
    judge = lambda prompt: "yes" if "Paris" in prompt.split("BEGIN STATEMENT")[1] else "no"
    direct = ProvenanceLLM(llm_callable=judge, on_fail="noop").validate(text, {"sources": sources})
    guard = Guard().use(ProvenanceLLM(llm_callable=judge, on_fail="fix"))
    outcome = guard.validate(text, metadata={"sources": sources})
    print(json.dumps({"after_import": after_import, "all": attempts,
                      "direct": direct.outcome, "fixed": outcome.validated_output,
                      "similarity": direct.metadata["sentences"][0]["evidence"][0]["similarity"],
                      "litellm_env": __import__("os").environ["LITELLM_LOCAL_MODEL_COST_MAP"]}))
""")


def test_no_connection_attempts(tmp_path):
    (tmp_path / ".guardrailsrc").write_text("enable_metrics=false\n")  # Guardrails' switch
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["after_import"] == []
    assert report["all"] == []
    assert report["direct"] == "fail"
    assert report["fixed"] == "The Eiffel Tower is in Paris."
    assert report["similarity"] > 0.5  # the real default model embedded the sources
    assert report["litellm_env"] == "True"
    assert "nltk_data" not in done.stderr  # Guardrails did not try to download punkt
