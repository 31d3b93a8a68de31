"""SL909: `--engram-config` storage options that exclude each other."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import engram_config, storage_problem

_SHARED = VllmCheck("engram.shared_memory_cpu_offload", "dp_shared_memory requires cpu_offload=True",
                    "vllm/config/engram.py")
_THP = VllmCheck("engram.use_thp", "use_thp requires cpu_offload=True and dp_shared_memory=False",
                 "vllm/config/engram.py")


class EngramStorageCombination(Rule):
    """`--engram-config` `dp_shared_memory` or `use_thp` without CPU offload.

    ## What it does
    Reports `"dp_shared_memory": true` with `"cpu_offload": false`, and
    `"use_thp": true` with `cpu_offload` off or `dp_shared_memory` on.

    ## Why
    Both options are ways of holding the CPU-offloaded tables: shared
    memory between data-parallel replicas, or private tables on transparent
    huge pages. Without CPU offload there is no host table, and a shared
    table is not private. `EngramConfig` refuses the object as soon as the
    arguments are read: "dp_shared_memory requires cpu_offload=True", or
    "use_thp requires cpu_offload=True and dp_shared_memory=False".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4.1 --engram-config '{"dp_shared_memory": true, "cpu_offload": false}'
    ```

    ## Fix
    Turn `cpu_offload` back on (the default), or drop `dp_shared_memory` /
    `use_thp`.

    ## Evidence
    The JSON as written (dotted keys merged); an unknown key or a
    non-boolean value is refused by pydantic first (invalid-value). In
    0.30.0 an unwritten `cpu_offload` is `VLLM_PLE_CPU_OFFLOAD` (on unless
    the launch sets it to 0; a value only known at run time keeps the rule
    silent); `use_thp` exists from 0.31.0.

    ## vLLM source
    `EngramConfig._validate_shared_memory`, run by `EngineArgs.__post_init__`.
    """

    code = "SL909"
    name = "engram-storage-combination"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_SHARED, _THP)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--engram-config"
    requires = ("--engram-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = engram_config(ctx)
        if cfg is None:
            return
        problem = storage_problem(ctx, cfg.value)
        if problem is None:
            return
        check = _SHARED if problem == "shared_memory" else _THP
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, check.key), check.key)
