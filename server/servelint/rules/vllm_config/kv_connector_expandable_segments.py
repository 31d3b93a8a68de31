"""SL604: a KV connector with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True."""

from __future__ import annotations

from typing import Iterable

from ...derive.kv_transfer import connector_name
from ..base import Context, Finding
from ._shared import VllmConfigRule, checks, env_related, report, switched_on

_ENV = "PYTORCH_CUDA_ALLOC_CONF"


class KvConnectorExpandableSegments(VllmConfigRule):
    """A KV connector with `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` and no cumem allocator.

    ## What it does
    Reports a KV connector (`--kv-transfer-config` with a `kv_connector`, or
    the offloading connector `--kv-offloading-size` creates) when the
    launch's environment sets `PYTORCH_CUDA_ALLOC_CONF` to a value holding
    `expandable_segments:True`, unless `--enable-cumem-allocator` or
    `--enable-sleep-mode` (which turns the cumem allocator on) is set.

    ## Why
    PyTorch's expandable segments can remap the KV cache's virtual addresses
    to other physical pages, invalidating memory a connector registered
    (NIXL, Mooncake). vLLM refuses the combination for every connector
    while building its config: "KV connector NixlConnector is incompatible
    with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True unless
    enable_cumem_allocator is also enabled. ..."

    ## Example
    ```sh
    PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B \\
        --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
    ```

    ## Fix
    Drop `expandable_segments:True` from `PYTORCH_CUDA_ALLOC_CONF`, or add
    `--enable-cumem-allocator`.

    ## Evidence
    The variable as the file sets it (vLLM looks for the exact text
    `expandable_segments:True`); a variable the file does not set, or sets
    to a value known only at run time, leaves the rule silent, as does a
    cumem-allocator or sleep-mode flag whose value is unknown.

    ## vLLM source
    `VllmConfig._verify_kv_transfer_compat` (vllm/config/vllm.py).
    """

    code = "SL604"
    name = "kv-connector-expandable-segments"
    vllm_checks = checks("kv_expandable")
    requires = (_ENV,)

    def check(self, ctx: Context) -> Iterable[Finding]:
        var = ctx.invocation.env.get(_ENV)
        if var is None or var.value is None or not var.exact or "expandable_segments:True" not in var.value:
            return
        for dest in ("enable_cumem_allocator", "enable_sleep_mode"):
            on = switched_on(ctx, dest)
            if on.value is not False:
                return
        name = connector_name(ctx)
        if not isinstance(name.value, str) or not name.flags:
            return
        found = report(ctx, name.flags[-1], "kv_expandable", name.value,
                       note=name.why if name.why else "", related_to=env_related(ctx, _ENV))
        if found is not None:
            yield found
