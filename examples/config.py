"""A Guardrails server config serving provenance-guard: one guard, ``provenance``.

Run it from the repository (the server, guardrails-api, comes with the ``dev`` extra:
``pip install -e '.[dev]'``); it listens on 127.0.0.1:

    guardrails start --config examples/config.py --port 8000

Then send a text with the sources it must be backed by, in the request's metadata:

    curl -s http://127.0.0.1:8000/guards/provenance/validate \\
      -H 'Content-Type: application/json' \\
      -d '{"llm_output": "The tower opened in 1889. It was painted gold in 2024.",
           "metadata": {"sources": ["The Eiffel Tower opened in 1889."]}}'

``validationPassed`` in the answer says whether every sentence is supported; when not,
``validationSummaries[0].failureReason`` names the unsupported sentences and why, and
``errorSpans`` gives their offsets in ``llm_output``.

The judge here is ``"local"``, the offline rule-based judge: no network, no API key. For an LLM
judge, give a LiteLLM model name instead, e.g. ``llm_callable="gpt-4o-mini"``, with
``OPENAI_API_KEY`` in the server's environment or in a ``.env`` file in the directory you start
it from. Keep the judge a string: ``GET /guards`` serialises every argument, and a callable or a
judge object makes it answer 400. Keep keys out of ``llm_kwargs`` for the same reason: ``GET
/guards`` would show them to anyone who asks.
"""

from guardrails import Guard

from provenance_guard import ProvenanceLLM

# guardrails-api finds a config's guard by the id in the URL (/guards/<id>/validate) and
# shows its name; without an id it would be a random UUID.
provenance = Guard(id="provenance", name="provenance").use(
    # "noop": the answer carries validationPassed and the reasons, and the client decides;
    # "fix" would pass the text on without its unsupported sentences.
    ProvenanceLLM(llm_callable="local", on_fail="noop")
)
