"""SL430: a model-specific MTP method name (`deepseek_mtp`, ...) that vLLM replaces with `mtp`."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, key_fix, speculative_written

_CHECK = VllmCheck("speculative.mtp_method_deprecated", "method `%s` is deprecated and replaced with mtp.", "vllm/config/speculative.py")


class MtpDeprecatedMethodName(Rule):
    """A model-specific MTP method name such as `deepseek_mtp` instead of `mtp`.

    ## What it does
    Warns about a speculative `method` that is one of vLLM's model-specific
    MTP names (`deepseek_mtp`, `qwen3_next_mtp`, `glm4_moe_mtp`, ...).

    ## Why
    vLLM logs "method `deepseek_mtp` is deprecated and replaced with mtp."
    and runs `mtp`, which picks the MTP module from the model itself. The
    old names may be dropped from the accepted values in a later release.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Write `"method": "mtp"`.

    ## Fix safety
    Safe: vLLM replaces the name with `mtp` itself, before anything reads
    it; the launch runs as before.

    ## Evidence
    The speculative config as written.

    ## vLLM source
    `SpeculativeConfig.__post_init__`, after the method is inferred.
    """

    code = "SL430"
    name = "mtp-deprecated-method-name"
    category = Category.DEPRECATED
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    fixes = frozenset({Applicability.SAFE})
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.renamed is None:
            return
        message = f"method `{p.renamed}` is deprecated and replaced with mtp."
        found = key_finding(ctx, p.args, "method", message, _CHECK.key,
                        message=f"method `{p.renamed}` is deprecated: vLLM replaces it with mtp")
        fix = key_fix(ctx, p.args, "method", "Write method mtp", Applicability.SAFE, new_value="mtp")
        if fix is not None:
            found.fixes.append(fix)
        yield found
