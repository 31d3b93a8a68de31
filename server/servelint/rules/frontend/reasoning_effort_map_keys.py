"""SL707: `--reasoning-effort-map` with a key that is not a reasoning effort."""

from __future__ import annotations

from ...knowledge.validators import VllmCheck
from ._shared import REASONING_EFFORTS, ReasoningEffortMapRule

_CHECK = VllmCheck("reasoning_effort_map.keys", "--reasoning-effort-map has unknown efforts ")


class ReasoningEffortMapKeys(ReasoningEffortMapRule):
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
    vllm_checks = (_CHECK, REASONING_EFFORTS)
