"""SL706: `--reasoning-effort-map` that is not a JSON object of strings."""

from __future__ import annotations

from ...knowledge.validators import VllmCheck
from ._shared import REASONING_EFFORTS, ReasoningEffortMapRule

_CHECK = VllmCheck("reasoning_effort_map.type", "--reasoning-effort-map must be a JSON object mapping ")


class ReasoningEffortMapType(ReasoningEffortMapRule):
    """`--reasoning-effort-map` that is not a JSON object of strings.

    ## What it does
    Reports a `--reasoning-effort-map` whose JSON value is not an object, or
    maps an effort to something other than a string.

    ## Why
    The map translates the `reasoning_effort` a request asks for into the
    string the model's chat template expects. `vllm serve` checks it before
    loading anything and stops with "Error: --reasoning-effort-map must be a
    JSON object mapping reasoning efforts to strings."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --reasoning-effort-map '{"low": 1024}'
    ```

    ## Fix
    Quote every value: `--reasoning-effort-map '{"low": "1024"}'`.

    ## Evidence
    The last `--reasoning-effort-map` as written (argparse keeps it); a value
    only known at run time, or one that is not JSON (argparse refuses it
    first), is not judged.

    ## vLLM source
    `validate_reasoning_effort_map`, called by `validate_parsed_serve_args`
    after the gRPC port checks.
    """

    code = "SL706"
    name = "reasoning-effort-map-type"
    vllm_checks = (_CHECK, REASONING_EFFORTS)
