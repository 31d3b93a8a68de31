"""SL663: compilation and CUDA graph settings that ``--enforce-eager`` overrides."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("vllm.enforce_eager_overrides", "Enforce eager set, disabling torch.compile and CUDAGraphs. ",
                   "vllm/config/vllm.py")
# -cc keys whose values --enforce-eager replaces (mode, cudagraph_mode) or
# leaves unused (the capture sizes, with CUDA graphs off).
_CC_KEYS = ("mode", "cudagraph_mode", "cudagraph_capture_sizes", "max_cudagraph_capture_size")
_FLAGS = ("cudagraph_capture_sizes", "max_cudagraph_capture_size")


def _is_none_mode(value: object) -> bool:
    """A mode eager mode sets anyway (``NONE``, or 0 for ``mode``)."""
    return (isinstance(value, str) and value.strip().upper() == "NONE") or (value == 0 and not isinstance(value, bool))


class EnforceEagerOverridesCompilation(Rule):
    """`--enforce-eager` together with compilation or CUDA graph settings it overrides.

    ## What it does
    Warns about `--enforce-eager` written with a `--compilation-config`
    (`-cc`) that sets `mode`, `cudagraph_mode`, `cudagraph_capture_sizes`
    or `max_cudagraph_capture_size`, or with `--cudagraph-capture-sizes`
    / `--max-cudagraph-capture-size`.

    ## Why
    Eager mode sets the compilation mode and the CUDA graph mode to none
    whatever the compilation config says, so those settings do nothing.
    vLLM logs "Enforce eager set, disabling torch.compile and CUDAGraphs.
    This is equivalent to setting -cc.mode=none -cc.cudagraph_mode=none"
    (from 0.31.0 also disabling JIT kernel warmup, unless fault tolerance
    is on).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enforce-eager -cc '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'
    ```

    ## Fix
    Remove `--enforce-eager` to keep the compilation settings, or remove
    the settings.

    ## Evidence
    The flags as written (silent when `--enforce-eager` is only known at
    run time).

    ## vLLM source
    `VllmConfig.__post_init__`, the `enforce_eager` block.
    """

    code = "SL663"
    name = "enforce-eager-overrides-compilation"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enforce-eager"
    partners = ("--compilation-config", "--cudagraph-capture-sizes", "--max-cudagraph-capture-size")
    requires = ("--enforce-eager",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        eager = value_of(inv, "enforce_eager")
        if eager.how != "flag" or eager.value is not True or not eager.flags:
            return
        dead: list = []
        names: list[str] = []
        cc = json_of(inv, "compilation_config")
        if cc.how == "flag" and cc.flags:
            keys = [k for k in _CC_KEYS if cc.value.get(k) is not None and not _is_none_mode(cc.value.get(k))]
            if keys:
                dead.append(cc.flags[-1])
                names.extend(f"-cc.{k}" for k in keys)
        for dest in _FLAGS:
            flags = written(inv, dest)
            if flags:
                dead.append(flags[-1])
                names.append(flags[-1].written)
        if not dead:
            return
        text = (f"--enforce-eager turns torch.compile and CUDA graphs off, so vLLM ignores "
                f"{', '.join(names)}")
        rel = related(ctx, dead, "overridden by --enforce-eager: {flag}")
        yield finding(ctx, eager.flags[-1], None, _CHECK.key, message=text, related_to=rel)
