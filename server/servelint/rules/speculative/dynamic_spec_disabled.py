"""SL433: a dynamic speculative-token schedule that vLLM drops (data parallelism, or Model Runner V1 with the method)."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.runner import use_v2_model_runner
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import final_tokens, key_finding, settled_method, speculative_written

_PATH = "vllm/config/vllm.py"
_DP = VllmCheck("speculative.dynamic_dp", "Dynamic speculative decoding is not supported with data parallelism", _PATH)
_V1 = VllmCheck("speculative.dynamic_v1", "speculative method on Model Runner V1. ", _PATH)
# ``VllmConfig._maybe_disable_dynamic_sd_for_v1``: the methods whose V1 proposer truncates drafts.
_V1_METHODS = ("ngram", "eagle", "eagle3", "mtp", "draft_model", "dflash")


class DynamicSpecDisabled(Rule):
    """`num_speculative_tokens_per_batch_size` that vLLM turns off.

    ## What it does
    Warns about a dynamic speculative-token schedule
    (`num_speculative_tokens_per_batch_size` in the speculative config) on
    a launch with `--data-parallel-size` above 1, or on Model Runner V1
    with a method whose V1 proposer cannot truncate drafts (suffix, DSpark,
    GPU n-gram, custom and hidden-state extraction).

    ## Why
    Data-parallel ranks could pick different token counts and deadlock;
    V1 only truncates drafts for some proposers. vLLM logs "Dynamic
    speculative decoding is not supported with data parallelism ...
    Disabling num_speculative_tokens_per_batch_size and falling back to
    static num_speculative_tokens=3." and runs with the static count.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --data-parallel-size 2 --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3], [9, 256, 1]]}'
    ```

    ## Fix
    Drop the schedule (and pick the static `num_speculative_tokens` you
    want), or run without data parallelism (Model Runner V2 for the other
    methods).

    ## Evidence
    The flags as written; the model runner as `derive.runner` resolves it
    (silent when it depends on what the file does not show).

    ## vLLM source
    `VllmConfig._maybe_disable_dynamic_sd_for_data_parallel` and
    `_maybe_disable_dynamic_sd_for_v1`.
    """

    code = "SL433"
    name = "dynamic-spec-disabled"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_DP, _V1)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.args.get("num_speculative_tokens_per_batch_size") is None:
            return
        n = final_tokens(p)
        if n is None:
            return
        key = "num_speculative_tokens_per_batch_size"
        dp = value_of(ctx.invocation, "data_parallel_size")
        if dp.how == "flag" and isinstance(dp.value, int) and dp.value > 1 and validators.has(_DP.key, ctx.version):
            message = ("Dynamic speculative decoding is not supported with data parallelism because data-parallel "
                       "ranks can select different speculative-token counts, causing DP divergence and deadlocks. "
                       f"Disabling num_speculative_tokens_per_batch_size and falling back to static "
                       f"num_speculative_tokens={n}.")
            yield key_finding(ctx, p.args, key, message, _DP.key, message=(
                f"vLLM ignores num_speculative_tokens_per_batch_size with data parallelism "
                f"(--data-parallel-size {dp.value}) and uses num_speculative_tokens={n} throughout"))
            return
        method = settled_method(p)
        if method is None or method in _V1_METHODS or not validators.has(_V1.key, ctx.version):
            return
        runner = use_v2_model_runner(ctx)
        if runner.value is not False:
            return
        message = (f"Dynamic speculative decoding is not supported with the '{method}' speculative method on Model "
                   f"Runner V1. Disabling num_speculative_tokens_per_batch_size and falling back to static "
                   f"num_speculative_tokens={n}.")
        yield key_finding(ctx, p.args, key, message, _V1.key, message=(
            f"vLLM ignores num_speculative_tokens_per_batch_size for method '{method}' on Model Runner V1 "
            f"({runner.why or 'V1'}) and uses num_speculative_tokens={n} throughout"))
