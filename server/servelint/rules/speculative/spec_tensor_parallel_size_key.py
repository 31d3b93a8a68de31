"""SL406: `tensor_parallel_size` in the speculative config instead of `draft_tensor_parallel_size`."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import speculative_args
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import int_key, key_finding, key_fix, speculative_written

_CHECK = VllmCheck(
    "speculative.tensor_parallel_size_key", "'tensor_parallel_size' is not a valid argument in the speculative_config.",
    "vllm/config/speculative.py",
)
_MESSAGE = ("'tensor_parallel_size' is not a valid argument in the speculative_config. "
            "Please pass 'draft_tensor_parallel_size' instead.")


class SpecTensorParallelSizeKey(Rule):
    """`tensor_parallel_size` written in the speculative config.

    ## What it does
    Reports the key `tensor_parallel_size` in `--speculative-config`.
    `SpeculativeConfig` has the field only to catch this mistake: the draft
    model's tensor-parallel size is `draft_tensor_parallel_size`.

    ## Why
    vLLM stops while checking the speculative config: "'tensor_parallel_size'
    is not a valid argument in the speculative_config. Please pass
    'draft_tensor_parallel_size' instead."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --speculative-config \\
        '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 4, "tensor_parallel_size": 1}'
    ```

    ## Fix
    Rename the key to `draft_tensor_parallel_size` (1 or the target's
    tensor-parallel size), or drop it: the draft then uses the target's.

    ## Fix safety
    Unsafe: the renamed key sets the draft's tensor-parallel size, which
    vLLM otherwise takes from the target; it must then be 1 or the target's
    (draft-tp-1-or-target-tp).

    ## Evidence
    The speculative config as written.

    ## vLLM source
    `SpeculativeConfig._verify_args`, its first check (after
    `__post_init__`, whose errors vLLM reports first).
    """

    code = "SL406"
    name = "spec-tensor-parallel-size-key"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    fixes = frozenset({Applicability.UNSAFE})
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None or int_key(s, "tensor_parallel_size") is None:
            return
        found = key_finding(ctx, s, "tensor_parallel_size", _MESSAGE, _CHECK.key)
        fix = key_fix(ctx, s, "tensor_parallel_size", "Rename the key to draft_tensor_parallel_size",
                      Applicability.UNSAFE, new_key="draft_tensor_parallel_size")
        if fix is not None:
            found.fixes.append(fix)
        yield found
