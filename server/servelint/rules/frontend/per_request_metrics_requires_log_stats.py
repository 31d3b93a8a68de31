"""SL709: `--enable-per-request-metrics` with `--disable-log-stats`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, removal_fix, vllm_message

_CHECK = VllmCheck("per_request_metrics.log_stats", "--enable-per-request-metrics requires engine statistics ")


class PerRequestMetricsRequiresLogStats(Rule):
    """`--enable-per-request-metrics` with `--disable-log-stats`.

    ## What it does
    Reports `--enable-per-request-metrics` on a launch that also gives
    `--disable-log-stats`.

    ## Why
    Per-request metrics are computed from the engine's statistics, which
    `--disable-log-stats` turns off. `vllm serve` stops before loading
    anything: "Error: --enable-per-request-metrics requires engine
    statistics logging; remove --disable-log-stats to enable per-request
    metrics."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-per-request-metrics --disable-log-stats
    ```

    ## Fix
    Remove `--disable-log-stats` (offered), or `--enable-per-request-metrics`.

    ## Fix safety
    Unsafe: removing `--disable-log-stats` turns engine statistics (and
    their periodic log lines) back on.

    ## Evidence
    Both switches as written (CLI or `--config` file).

    ## vLLM source
    `validate_parsed_serve_args`.
    """

    code = "SL709"
    name = "per-request-metrics-requires-log-stats"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-per-request-metrics"
    partners = ("--disable-log-stats",)
    fixes = frozenset({Applicability.UNSAFE})
    requires = ("--enable-per-request-metrics",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        metrics = value_of(inv, "enable_per_request_metrics")
        if metrics.how != "flag" or metrics.value is not True:
            return
        stats = value_of(inv, "disable_log_stats")
        if stats.how != "flag" or stats.value is not True:
            return
        fix = removal_fix(ctx, [f for f in inv.flags_for("disable_log_stats")], "Remove --disable-log-stats")
        yield finding(ctx, metrics.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, stats.flags, "engine statistics turned off by {flag}"),
                      fixes=[fix] if fix else None)
