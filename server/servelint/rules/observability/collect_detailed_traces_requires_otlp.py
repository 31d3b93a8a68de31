"""SL766: `--collect-detailed-traces` without `--otlp-traces-endpoint`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("observability.collect_traces_requires_otlp",
                   "collect_detailed_traces requires `--otlp-traces-endpoint` to be set.", "vllm/config/observability.py")
# DetailedTraceModules: Literal["model", "worker", "all"] in 0.25.0-0.33.0.
_MODULES = frozenset({"model", "worker", "all"})


def _endpoint_set(inv) -> bool | None:
    """Whether ``--otlp-traces-endpoint`` reaches ObservabilityConfig as a
    non-empty string (its type maps "" and "None" to None); None when the
    file does not show it."""
    flag = inv.last("otlp_traces_endpoint")
    if flag is None:
        return None if defaults_unknown(inv) else False
    if not flag.values or not all(w.exact for w in flag.values):
        return None
    return flag.values[0].text not in ("", "None")


class CollectDetailedTracesRequiresOtlp(Rule):
    """`--collect-detailed-traces` without an OpenTelemetry endpoint.

    ## What it does
    Reports `--collect-detailed-traces` (`model`, `worker`, `all`) when
    `--otlp-traces-endpoint` is not set (or set to `""` or `None`, which
    vLLM reads as unset).

    ## Why
    The detailed traces are sent to the OTLP endpoint; without one
    `ObservabilityConfig` stops: "collect_detailed_traces requires
    `--otlp-traces-endpoint` to be set.".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --collect-detailed-traces all
    ```

    ## Fix
    Add `--otlp-traces-endpoint` (and the OpenTelemetry packages it needs),
    or drop `--collect-detailed-traces`.

    ## Evidence
    Both flags as written (a `--config` key too). Silent when a value is not
    known from the file, when a module is not one of `model`, `worker`,
    `all` (pydantic refuses it first, with its own message), and for a
    `--config` file linted on its own (the command line may set the
    endpoint).

    ## vLLM source
    `ObservabilityConfig._validate_tracing_config` (a model validator, after the field validators).
    """

    code = "SL766"
    name = "collect-detailed-traces-requires-otlp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--collect-detailed-traces"
    requires = ("--collect-detailed-traces",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = inv.last("collect_detailed_traces")
        if flag is None or not flag.values or not all(w.exact for w in flag.values):
            return
        if not all(w.text in _MODULES for w in flag.values):
            return
        if _endpoint_set(inv) is not False:
            return
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key), _CHECK.key)
