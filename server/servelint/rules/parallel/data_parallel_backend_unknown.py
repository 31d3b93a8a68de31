"""SL523: `--data-parallel-backend` other than `mp` or `ray`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, last_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("parallel.dp_backend_ray_or_mp", "data_parallel_backend can only be ray or mp, got %s",
                   "vllm/engine/arg_utils.py")

# The two backends, in the assertion's own words (vllm/engine/arg_utils.py,
# ``create_engine_config``, 0.25.0-0.33.0) and ``ParallelConfig``'s
# ``DataParallelBackend = Literal["ray", "mp"]``. The option itself takes any
# string: argparse has no choices for it.
_BACKENDS = ("mp", "ray")


class DataParallelBackendUnknown(Rule):
    """`--data-parallel-backend` set to something other than `mp` or `ray`.

    ## What it does
    Reports `--data-parallel-backend` (`-dpb`) with a value other than `mp`
    or `ray`.

    ## Why
    The option takes any string, so argparse lets a typo through; vLLM finds
    it only when it builds the engine configuration. Without
    `--data-parallel-address`, `EngineArgs.create_engine_config` stops on an
    assertion whose text is a tuple: `('data_parallel_backend can only be ray
    or mp, got %s', 'torch')`. With an address, `ParallelConfig` refuses the
    value (`DataParallelBackend` is `Literal["ray", "mp"]`).

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-size 2 --data-parallel-backend torch
    ```

    ## Fix
    `--data-parallel-backend mp` (the default: vLLM's own processes) or
    `ray` (no fix is offered: which backend was meant is the user's call).

    ## Evidence
    The value as written; silent when it is a variable the file does not set.

    ## vLLM source
    `EngineArgs.create_engine_config`, the data-parallel address.
    """

    code = "SL523"
    name = "data-parallel-backend-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    requires = ("--data-parallel-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = known_flag(inv, "data_parallel_backend")
        backend = value_of(inv, "data_parallel_backend")
        if flag is None or not backend.known or not isinstance(backend.value, str) or backend.value in _BACKENDS:
            return
        with_address = last_flag(inv, "data_parallel_address") is not None
        if with_address and known_flag(inv, "data_parallel_address") is None:
            return  # an address the file does not show: which check fires is unknown
        site = validators.site(_CHECK.key, ctx.version)
        # vLLM prints the assertion's tuple; with an address pydantic words it.
        exact = repr((site.template, backend.value)) if site is not None and not with_address else None
        yield finding(ctx, flag, exact, _CHECK.key,
                      message=f"--data-parallel-backend {backend.value!r} is not a data-parallel backend: "
                              f"vLLM takes {' or '.join(_BACKENDS)}")
