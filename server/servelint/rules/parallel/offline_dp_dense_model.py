"""SL516: `VLLM_DP_SIZE` above 1 for a dense model."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import is_moe
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source

_CHECK = VllmCheck("parallel.offline_dp_dense", "Offline data parallel mode is not supported/useful", "vllm/config/parallel.py")
_MESSAGE = "Offline data parallel mode is not supported/useful for dense models."


class OfflineDataParallelDenseModel(Rule):
    """`VLLM_DP_SIZE` above 1 for a dense model.

    ## What it does
    Reports a launch that sets the environment variable `VLLM_DP_SIZE` above
    1, leaves `--data-parallel-size` at 1, and serves a model whose
    config.json shows no experts.

    ## Why
    Without data parallelism on the command line, vLLM takes it from the
    `VLLM_DP_*` variables (the offline SPMD mode). Data-parallel ranks only
    need each other for MoE layers; for a dense model
    `ParallelConfig.__post_init__` stops with "Offline data parallel mode is
    not supported/useful for dense models."

    ## Example
    ```sh
    VLLM_DP_SIZE=2 vllm serve meta-llama/Llama-3.1-8B-Instruct
    ```

    ## Fix
    Unset `VLLM_DP_SIZE` and run independent instances, or serve a MoE model.

    ## Evidence
    The variable as the file sets it (an unset one is 1) and the model's
    config.json (see `ep-requires-moe-model` for how experts are counted); a
    model servelint cannot read keeps it silent.

    ## vLLM source
    `ParallelConfig.__post_init__`, the branch for data parallelism not
    given on the command line.
    """

    code = "SL516"
    name = "offline-dp-dense-model"
    requires = ("VLLM_DP_SIZE",)
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")

    def check(self, ctx: Context) -> Iterable[Finding]:
        var = ctx.invocation.env.get("VLLM_DP_SIZE")
        if var is None or var.value is None or not var.exact or var.span is None:
            return
        try:
            size = int(var.value)
        except ValueError:
            return
        if size <= 1:
            return
        dp = data_parallel_launch(ctx)
        if dp is None or dp.size > 1 or dp.size_local == 0:
            return
        if is_moe(ctx) is not False:
            return
        inv = ctx.invocation
        related = []
        if inv.model is not None:
            related.append(Related(inv.model.path or ctx.path, inv.model.span,
                                   f"{ctx.architecture or 'this model'} is a dense model"))
        yield Finding(var.span, f"{_MESSAGE} (VLLM_DP_SIZE={size} with --data-parallel-size 1)", related=related,
                      vllm_message=_MESSAGE, data={"vllm_source": vllm_source(ctx, _CHECK.key)})
