"""SL441: `--per-request-spec-decode-metrics` without speculative decoding."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.speculative import speculation
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding


_CHECK = VllmCheck(
    "speculative.per_request_metrics", "--per-request-spec-decode-metrics requires speculative decoding",
    "vllm/config/vllm.py",
)
_MESSAGE = ("--per-request-spec-decode-metrics requires speculative decoding to be enabled "
            "(via --speculative-config).")


class PerRequestSpecMetricsWithoutSpec(Rule):
    """`--per-request-spec-decode-metrics` on a launch without speculative decoding.

    ## What it does
    Reports `--per-request-spec-decode-metrics summary` or `detailed` when
    the launch configures no speculative decoding (no
    `--speculative-config`, no `--spec-*` shortcut).

    ## Why
    The metrics count accepted draft tokens per request; without a drafter
    there are none. vLLM stops with "--per-request-spec-decode-metrics
    requires speculative decoding to be enabled (via --speculative-config)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --per-request-spec-decode-metrics summary
    ```

    ## Fix
    Remove the flag, or add a `--speculative-config`.

    ## Evidence
    The flags as written.

    ## vLLM source
    `VllmConfig.__post_init__`.
    """

    code = "SL441"
    name = "per-request-spec-metrics-without-spec"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--per-request-spec-decode-metrics"
    requires = ("--per-request-spec-decode-metrics",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("per_request_spec_decode_metrics") is None:
            return
        v = value_of(inv, "per_request_spec_decode_metrics")
        if v.how != "flag" or not isinstance(v.value, str) or v.value == "none":
            return
        if speculation(inv).active is not False:
            return
        flag = v.flags[-1]
        yield finding(ctx, flag, _MESSAGE, _CHECK.key)
