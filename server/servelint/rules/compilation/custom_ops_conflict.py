"""SL744: `custom_ops` enabling and disabling the same op."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import CUSTOM_OPS_CONFLICT, report


class CustomOpsConflict(Rule):
    """A `--compilation-config` `custom_ops` list with both `+op` and `-op`.

    ## What it does
    Reports ops that `custom_ops` both enables (`+op`) and disables (`-op`).
    Silent on `-rotary_embedding` beside a `pass_config` RoPE fusion
    (`enable_qk_norm_rope_fusion`, `fuse_rope_kvcache`,
    `fuse_qk_norm_rope_kvcache`): vLLM adds `+rotary_embedding` for one that
    stays on, and turns them off on some platforms first.

    ## Why
    `CompilationConfig` stops: "custom_ops cannot both enable and disable the
    same operation(s): rms_norm. Remove either the '+' or '-' directive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"custom_ops": ["+rms_norm", "-rms_norm"]}'
    ```

    ## Fix
    Keep one of the two directives.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, after the base-mode check.
    """

    code = "SL744"
    name = "custom-ops-conflict"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (CUSTOM_OPS_CONFLICT,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, CUSTOM_OPS_CONFLICT)
