"""SL345: `--runner pooling --convert none` for a model that cannot pool."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._shared import registry_arch

_CHECK = VllmCheck("model.runner_pooling_needs_convert", "This model does not support `--runner pooling`.",
                   "vllm/config/model.py")

# ``_RUNNER_CONVERTS["pooling"]`` (vllm/config/model.py, the same in 0.25.0-0.33.0).
_POOLING_CONVERTS = ("embed", "classify")


class RunnerPoolingWithoutConvert(Rule):
    """`--runner pooling` with `--convert none` for a model that is not a pooling model.

    ## What it does
    Reports `--runner pooling` together with `--convert none` when the
    model's architecture is not a pooling model of the release's registry
    (a `*ForCausalLM` generative model, for instance).

    ## Why
    A generative model only pools once vLLM adapts it (`--convert embed` or
    `--convert classify`, which `--convert auto` picks); `none` turns the
    adapter off. vLLM stops with "This model does not support `--runner
    pooling`. You can pass `--convert <embed|classify> to adapt it into a
    pooling model."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --runner pooling --convert none
    ```

    ## Fix
    Drop `--convert none` (`auto` adapts the model), or pass `--convert
    embed` / `--convert classify`.

    ## Evidence
    The written `--runner` and `--convert` and the model's config.json with
    a single architecture, looked up in the release's registry. Silent with
    `--hf-overrides` or `--model-impl`.

    ## vLLM source
    `ModelConfig.__post_init__`, right after the runner and convert types
    are resolved.
    """

    code = "SL345"
    name = "runner-pooling-without-convert"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--convert"
    partners = ("--runner",)
    requires = ("--convert",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        runner, convert = value_of(inv, "runner"), value_of(inv, "convert")
        if runner.how != "flag" or runner.value != "pooling" or convert.how != "flag" or convert.value != "none":
            return
        arch = registry_arch(ctx)
        if arch is None or arch.is_pooling_model is not False:
            return
        option = "<" + "|".join(_POOLING_CONVERTS) + ">"
        rel = related(ctx, runner.flags, "pooling runner set by {flag}")
        rel += [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, convert.flags[-1], vllm_message(ctx, _CHECK.key, option), _CHECK.key, related_to=rel)
