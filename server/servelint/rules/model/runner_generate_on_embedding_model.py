"""SL333: `--runner generate` or `--runner draft` for an embedding-only model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._shared import registry_arch

_CHECK = VllmCheck("model.runner_generate_on_pooling", "Embedding models do not support `--runner {}`", "vllm/config/model.py")
_UNSUPPORTED = VllmCheck("model.runner_generate_unsupported", "This model does not support `--runner generate`.",
                         "vllm/config/model.py", whole=True)


class RunnerGenerateOnEmbeddingModel(Rule):
    """`--runner generate` (or `draft`) for a model that can only pool.

    ## What it does
    Reports `--runner generate` or `--runner draft` when the model's
    architecture (the `architectures` entry of its config.json) is a pooling
    model of vLLM's registry that is not also a text-generation model, such
    as `BertModel` or `XLMRobertaModel`.

    ## Why
    An embedding model has no language-model head to generate with. vLLM
    stops with "Embedding models do not support `--runner generate`. Use
    `--runner pooling` or `--runner auto` for embedding models." For a bare
    encoder it stops with "This model does not support `--runner
    generate`." (no converter makes a model generative).

    ## Example
    ```sh
    vllm serve BAAI/bge-base-en-v1.5 --runner generate
    ```

    ## Fix
    Use `--runner pooling`, or leave `--runner` out (`auto` picks pooling
    for these models).

    ## Evidence
    A written `--runner` and the model's config.json with a single
    architecture, looked up in the release's model registry (generated
    facts). Silent with `--hf-overrides` or `--model-impl` (they may change
    the class vLLM resolves), and when the architecture is only inferred
    from the model's name.

    ## vLLM source
    `ModelConfig.__post_init__`, right after the runner type is resolved.
    """

    code = "SL333"
    name = "runner-generate-on-embedding-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _UNSUPPORTED)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--runner"
    requires = ("--runner",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        runner = value_of(inv, "runner")
        if runner.how != "flag" or runner.value not in ("generate", "draft"):
            return
        arch = registry_arch(ctx)
        if arch is None or arch.is_text_generation_model is not False:
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        if arch.is_pooling_model is True:
            yield finding(ctx, runner.flags[-1], vllm_message(ctx, _CHECK.key, runner.value), _CHECK.key, related_to=rel)
        elif arch.is_pooling_model is False and runner.value == "generate":
            yield finding(ctx, runner.flags[-1], vllm_message(ctx, _UNSUPPORTED.key), _UNSUPPORTED.key, related_to=rel)
