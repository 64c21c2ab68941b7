"""Any LiteLLM model as a judge: OpenAI, Anthropic, Ollama, a llama.cpp server, ..."""

from __future__ import annotations

from typing import Any

from ..deadline import remaining
from .base import PromptJudge


class LiteLLMJudge(PromptJudge):
    """Sends the prompt as one user message to ``model`` through ``litellm.completion``.

    ``llm_kwargs`` go to every call: ``api_base``, ``api_key``, ``temperature``, ``timeout``...
    LiteLLM's own retries are off; ``PromptJudge`` retries with backoff instead.
    """

    def __init__(self, model: str, llm_kwargs: dict[str, Any] | None = None, **options):
        super().__init__(**options)
        self.model = model
        self.llm_kwargs = {"temperature": 0, "timeout": 60, **(llm_kwargs or {})}

    def complete(self, prompt: str) -> str:
        import litellm  # imported on first use: it is slow to import

        litellm.suppress_debug_info = True  # no "Give Feedback" banner on every error
        kwargs = dict(self.llm_kwargs)
        left = remaining()
        if left is not None:  # no call may outlive the validation's deadline
            kwargs["timeout"] = max(0.01, min(left, kwargs.get("timeout") or left))
        response = litellm.completion(
            model=self.model,
            messages=[{"role": "user", "content": prompt}],
            num_retries=0,
            **kwargs,
        )
        return response.choices[0].message.content or ""
