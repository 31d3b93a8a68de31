"""SL644: ``--enable-batch-sharded-sampling`` where vLLM cannot shard the sampler."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, value_of, written
from ...derive.scheduler import batches
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, release_has, vllm_message

_PATH = "vllm/config/vllm.py"
_CHECK = VllmCheck("vllm.batch_sharded_sampling", "Batch-sharded sampling was explicitly enabled via", _PATH)
# The blockers ``_validate_batch_sharded_sampling`` lists that come and go
# by release: the sampling mask from 0.30.0, adaptive verification up to 0.32.0.
_MASK = VllmCheck("vllm.batch_sharded_sampling.mask", "return_sampling_mask is set and the batch-sharded gather",
                  _PATH, code=True)
_ADAPTIVE = VllmCheck("vllm.batch_sharded_sampling.adaptive",
                      "it does not yet work with adaptive verification, which decides", _PATH, code=True)


class BatchShardedSamplingUnsupported(Rule):
    """`--enable-batch-sharded-sampling` on a launch vLLM cannot shard the sampler for.

    ## What it does
    Reports `--enable-batch-sharded-sampling` when one of vLLM's blockers
    holds: `--tensor-parallel-size` 1 (the default), `--max-num-seqs`
    below the tensor-parallel size, `--max-logprobs -1`, or (from 0.30.0)
    `--return-sampling-mask`. The message lists every blocker, as vLLM's
    does.

    ## Why
    Batch-sharded sampling splits each step's requests across the
    tensor-parallel ranks. vLLM stops while building its config:
    "Batch-sharded sampling was explicitly enabled via the
    --enable-batch-sharded-sampling flag, but is not supported in this
    configuration for the following reason(s): tensor_parallel_size is 1,
    so there is nothing to shard."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-batch-sharded-sampling
    ```

    ## Fix
    Remove `--enable-batch-sharded-sampling`, or remove what blocks it
    (run with `-tp` 2 or more and at least as many `--max-num-seqs`).

    ## Evidence
    The flags as written and their defaults. Silent when one of them is
    only known at run time, when an unwritten `--max-num-seqs` may differ
    by GPU in a way that matters, and (0.29.0-0.32.0) when the speculative
    config turns on adaptive verification, another blocker servelint does
    not spell out.

    ## vLLM source
    `VllmConfig._validate_batch_sharded_sampling`, after the model-runner
    validators.
    """

    code = "SL644"
    name = "batch-sharded-sampling-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _MASK, _ADAPTIVE)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--enable-batch-sharded-sampling"
    partners = ("--tensor-parallel-size", "--max-num-seqs", "--max-logprobs", "--return-sampling-mask")
    requires = ("--enable-batch-sharded-sampling",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        enabled = value_of(inv, "enable_batch_sharded_sampling")
        if enabled.how != "flag" or enabled.value is not True:
            return
        tp = value_of(inv, "tensor_parallel_size")
        logprobs = value_of(inv, "max_logprobs")
        if not is_int(tp.value) or not is_int(logprobs.value):
            return
        blockers: list[str] = []
        causes: list = []
        if tp.value <= 1:
            blockers.append("tensor_parallel_size is 1, so there is nothing to shard")
            causes.extend(tp.flags)
        else:
            sizes = batches(ctx)
            if not sizes:
                return
            seqs = {b.seqs for b in sizes}
            if all(s >= tp.value for s in seqs):
                pass
            elif len(seqs) == 1:
                blockers.append(f"max_num_seqs ({seqs.pop()}) is below tensor_parallel_size ({tp.value})")
                causes.extend(written(inv, "max_num_seqs")[-1:])
            else:
                return
        if logprobs.value < 0:
            blockers.append("max_logprobs is -1, allowing vocab-size logprob requests")
            causes.extend(logprobs.flags)
        if release_has(ctx, _MASK.key):
            mask = value_of(inv, "return_sampling_mask")
            if not mask.known:
                return
            if mask.value:
                blockers.append("return_sampling_mask is set and the batch-sharded gather does "
                                "not forward sampling masks")
                causes.extend(mask.flags)
        if release_has(ctx, _ADAPTIVE.key) and written(inv, "speculative_config"):
            spec = json_of(inv, "speculative_config")
            if not spec.known or spec.value.get("enable_adaptive_verification", False) is not False:
                return
        if not blockers:
            return
        message = vllm_message(ctx, _CHECK.key, "; ".join(blockers))
        if message is None:
            return
        rel = related(ctx, causes, "blocked by {flag}")
        yield finding(ctx, enabled.flags[-1], message, _CHECK.key, related_to=rel)
