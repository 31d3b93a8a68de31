"""SL666: ``--mm-tensor-ipc torch_shm`` with workers started otherwise than by spawn."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import arch_facts
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("vllm.torch_shm_spawn", "torch_shm is known to fail without", "vllm/config/vllm.py")
_ENV = "VLLM_WORKER_MULTIPROC_METHOD"


class TorchShmRequiresSpawn(Rule):
    """`--mm-tensor-ipc torch_shm` with `VLLM_WORKER_MULTIPROC_METHOD` set to other than `spawn`.

    ## What it does
    Reports `--mm-tensor-ipc torch_shm` on a multimodal model when the
    file sets `VLLM_WORKER_MULTIPROC_METHOD` to a value other than `spawn`
    (such as `fork`).

    ## Why
    Sharing multimodal tensors through torch shared memory breaks with
    forked workers. vLLM stops while building its config: "torch_shm is
    known to fail without VLLM_WORKER_MULTIPROC_METHOD set to spawn".
    Unset, `vllm serve` sets the variable to `spawn` itself, so only an
    explicit other value fails.

    ## Example
    ```sh
    VLLM_WORKER_MULTIPROC_METHOD=fork vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-tensor-ipc torch_shm
    ```

    ## Fix
    Set `VLLM_WORKER_MULTIPROC_METHOD=spawn` (or leave it unset), or use
    `--mm-tensor-ipc direct_rpc`.

    ## Evidence
    The flag and the variable as the file writes them, and the
    architecture's registry facts (`supports_multimodal`).

    ## vLLM source
    `VllmConfig.__post_init__`. Verified from vLLM's source only: the
    vllm-oracle's environment cannot inspect the multimodal architectures
    at hand.
    """

    code = "SL666"
    name = "torch-shm-requires-spawn"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-tensor-ipc"
    requires = ("--mm-tensor-ipc",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ipc = value_of(inv, "mm_tensor_ipc")
        if ipc.how != "flag" or ipc.value != "torch_shm" or not ipc.flags:
            return
        var = inv.env.get(_ENV)
        if var is None or var.value is None or not var.exact or var.value == "spawn":
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, ipc.flags[-1], message, _CHECK.key, note=f"{_ENV}={var.value}")
