"""SL707: `--reasoning-effort-map` with a key that is not a reasoning effort."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import EFFORTS, REASONING_EFFORTS, reasoning_effort_map

_CHECK = VllmCheck("reasoning_effort_map.keys", "--reasoning-effort-map has unknown efforts ")


class ReasoningEffortMapKeys(Rule):
    """`--reasoning-effort-map` with a key that is not a reasoning effort.

    ## What it does
    Reports a `--reasoning-effort-map` object with a key other than the
    efforts a request may ask for (`none`, `minimal`, `low`, `medium`,
    `high`, `xhigh`, `max` in 0.33.0).

    ## Why
    A key no request can send is a typo or a value for another server. `vllm
    serve` stops with "Error: --reasoning-effort-map has unknown efforts
    ['hihg']; keys must be one of ['none', 'minimal', 'low', 'medium',
    'high', 'xhigh', 'max']."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --reasoning-effort-map '{"hihg": "deep"}'
    ```

    ## Fix
    Use the effort names exactly (lower case).

    ## Evidence
    The last `--reasoning-effort-map` as written; a value only known at run
    time is not judged, nor an object refused first because a value is not a
    string (SL706).

    ## vLLM source
    `validate_reasoning_effort_map`; the efforts are the `ReasoningEffort`
    literal (vllm/renderers/params.py).
    """

    code = "SL707"
    name = "reasoning-effort-map-keys"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, REASONING_EFFORTS)
    reviewed = ("0.33.0", "0.33.0")
    anchor = "--reasoning-effort-map"
    requires = ("--reasoning-effort-map",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        found = reasoning_effort_map(ctx)
        if found is None:
            return
        flag, value = found
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            return
        unknown = sorted(set(value) - set(EFFORTS))
        if not unknown:
            return
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, repr(unknown), repr(list(EFFORTS))), _CHECK.key)
