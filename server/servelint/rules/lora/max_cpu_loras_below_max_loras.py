"""SL900: `--max-cpu-loras` smaller than `--max-loras`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, int_or_none, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("lora.max_cpu_loras", "max_cpu_loras ({}) must be >= max_loras ({}).", "vllm/config/lora.py")


class MaxCpuLorasBelowMaxLoras(Rule):
    """`--max-cpu-loras` smaller than `--max-loras` with LoRA on.

    ## What it does
    Reports a positive `--max-cpu-loras` below `--max-loras` (default 1)
    on a launch with `--enable-lora`.

    ## Why
    The CPU cache of adapters must hold at least the adapters of one batch.
    `LoRAConfig` stops the launch: "max_cpu_loras (2) must be >= max_loras (4)."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-loras 4 --max-cpu-loras 2
    ```

    ## Fix
    Raise `--max-cpu-loras` to at least `--max-loras`, or drop it (it then
    defaults to `--max-loras`).

    ## Evidence
    The three values as written (`--max-loras` may be its default). A
    `--max-cpu-loras` of 0 or below is passed to vLLM as unset
    (`EngineArgs.create_engine_config`), and without `--enable-lora` no
    `LoRAConfig` is built: both keep the rule silent, as does a value the
    file does not show.

    ## vLLM source
    `LoRAConfig._validate_lora_config`.
    """

    code = "SL900"
    name = "max-cpu-loras-below-max-loras"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-cpu-loras"
    partners = ("--max-loras", "--enable-lora")
    requires = ("--max-cpu-loras",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("max_cpu_loras") is None or switch(inv, "enable_lora") is not True:
            return
        known, cpu = int_or_none(inv, "max_cpu_loras")
        if not known or cpu is None or cpu <= 0:
            return
        loras = int_of(inv, "max_loras")
        if loras.how == "unknown" or cpu >= loras.value:
            return
        flag = value_of(inv, "max_cpu_loras").flags[-1]
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, cpu, loras.value), _CHECK.key,
                      related_to=related(ctx, loras.flags, "max_loras set by {flag}"))
