"""SL587: chunked prefill turned off for a generative model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown, known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("engine_args.chunked_prefill_disabled",
                   "This model does not officially support disabling chunked prefill.", "vllm/engine/arg_utils.py")
_MESSAGE = ("This model does not officially support disabling chunked prefill. Disabling this manually may cause "
            "the engine to crash or produce incorrect outputs.")


class ChunkedPrefillDisabled(Rule):
    """`--no-enable-chunked-prefill` for a generative model.

    ## What it does
    Warns about chunked prefill turned off (`--no-enable-chunked-prefill`,
    `--enable-chunked-prefill false` in a `--config` file) for a model that
    vLLM runs as a text generator with a decoder (not encoder-decoder).

    ## Why
    Chunked prefill is the default for every such model, and vLLM no longer
    tests it off: it logs "This model does not officially support disabling
    chunked prefill. Disabling this manually may cause the engine to crash
    or produce incorrect outputs." and goes on.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill
    ```

    ## Fix
    Remove the flag; bound a step with `--max-num-batched-tokens` instead.

    ## Evidence
    The flag as written, and the architecture from the model's config.json
    in the release's model registry: a text-generation model that is not a
    pooling model, served with `--runner` left at `auto` or set to
    `generate`. An unknown or inferred architecture keeps the rule silent.

    ## vLLM source
    `EngineArgs._set_default_chunked_prefill_and_prefix_caching_args` (a warning).
    """

    code = "SL587"
    name = "chunked-prefill-disabled"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-chunked-prefill"
    requires = ("--enable-chunked-prefill", "--runner")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = known_flag(inv, "enable_chunked_prefill")
        if flag is None or value_of(inv, "enable_chunked_prefill").value is not False:
            return
        runner = value_of(inv, "runner")
        if runner.value not in ("auto", "generate") or (runner.how == "default" and defaults_unknown(inv)):
            return
        arch = ctx.arch
        model = ctx.model
        if arch is None or model is None or getattr(model, "inferred", False):
            return
        if not arch.is_text_generation_model or arch.is_pooling_model or arch.attn_type == "encoder_decoder":
            return
        yield finding(ctx, flag, None, _CHECK.key, message=_MESSAGE, note=f"{ctx.architecture} defaults to chunked prefill")
