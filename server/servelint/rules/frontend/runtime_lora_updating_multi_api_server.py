"""SL718: `VLLM_ALLOW_RUNTIME_LORA_UPDATING` with several API server processes."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch
from ...derive.serve import api_server_count, lb_modes
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import serve_entry

_ENV = "VLLM_ALLOW_RUNTIME_LORA_UPDATING"
_CHECK = VllmCheck("serve.runtime_lora_multi_api", "VLLM_ALLOW_RUNTIME_LORA_UPDATING cannot be used with api_server_count > 1")


class RuntimeLoraUpdatingMultiApiServer(Rule):
    """`VLLM_ALLOW_RUNTIME_LORA_UPDATING` with several API server processes.

    ## What it does
    Reports a `vllm serve` launch whose environment sets
    `VLLM_ALLOW_RUNTIME_LORA_UPDATING` (to `1` or `true`) and that runs more
    than one API server process: an `--api-server-count` above 1, or, without
    it, a `--data-parallel-size` above 1 (internal load balancing starts one
    API server per rank) or a `--data-parallel-size-local` above 1 (hybrid).

    ## Why
    Adapters loaded at run time through `/v1/load_lora_adapter` would reach
    only the API server that got the request. vLLM builds the engine config
    and then stops: "VLLM_ALLOW_RUNTIME_LORA_UPDATING cannot be used with
    api_server_count > 1". `-dp 4` alone is enough to get there.

    ## Example
    ```sh
    VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve Qwen/Qwen3-8B --enable-lora -dp 4
    ```

    ## Fix
    Add `--api-server-count 1`, or drop the variable and give the adapters
    with `--lora-modules`.

    ## Evidence
    The variable in the launch's environment as the file shows it, and the
    flags that decide the API server count (`--headless`, the load-balancing
    flags, the Rust frontend's variable, Elastic EP's cap to one). A value
    only known at run time keeps the rule silent.

    ## vLLM source
    `run_multi_api_server` (vllm/entrypoints/cli/serve.py), after the
    engine config is built. vLLM's oracle does not run it: golden case.
    """

    code = "SL718"
    name = "runtime-lora-updating-multi-api-server"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--api-server-count"
    requires = (_ENV,)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        var = inv.env.get(_ENV)
        if var is None or var.value is None or var.value.strip().lower() not in ("1", "true"):
            return
        if not serve_entry(ctx) or switch(inv, "grpc") is not False:
            return
        if switch(inv, "data_parallel_multi_port_external_lb") is not False:
            return  # the supervisor runs one server per rank, each on its own
        count = api_server_count(ctx)
        if count is None or count <= 1:
            return
        if switch(inv, "enable_elastic_ep") is not False:
            return  # capped to one API server
        modes = lb_modes(ctx)
        dest = "data_parallel_size_local" if modes is not None and modes.hybrid else "data_parallel_size"
        flag = known_flag(inv, "api_server_count") or known_flag(inv, dest)
        if flag is None:
            return
        rel = [Related(ctx.path, var.span, f"{_ENV} set here")] if var.span is not None else []
        note = "" if flag.canonical == "--api-server-count" else f"{flag.written} starts {count} API servers"
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key), _CHECK.key, note=note, related_to=rel)
