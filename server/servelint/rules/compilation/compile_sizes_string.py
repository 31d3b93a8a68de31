"""SL750: a string in `compile_sizes` other than "cudagraph_capture_sizes"."""

from __future__ import annotations

from typing import Iterable

from ...derive.config_json import config_object
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import first_problem

_CHECK = VllmCheck("compilation.compile_sizes_string", "Unrecognized size type in compile_sizes, expect", "vllm/config/compilation.py")


class CompileSizesString(Rule):
    """A `compile_sizes` string other than `"cudagraph_capture_sizes"`.

    ## What it does
    For target `cuda`, reports a string in `--compilation-config`
    `compile_sizes` other than `"cudagraph_capture_sizes"` (the one name
    that stands for every CUDA graph capture size).

    ## Why
    Inductor compiles one graph per size; a string names a list of sizes,
    and only `cudagraph_capture_sizes` is known. While building its
    config vLLM stops: "Unrecognized size type in compile_sizes, expect
    'cudagraph_capture_sizes', got cudagraph_sizes".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"compile_sizes": [1, 2, "cudagraph_sizes"]}'
    ```

    ## Fix
    Write integers, or the exact name `cudagraph_capture_sizes`.

    ## Evidence
    The JSON of `--compilation-config` as written; the declared target must
    be `cuda` (the settings' target). Silent when `CompilationConfig` fails
    an earlier check (the other compilation rules) or servelint cannot read
    the JSON.

    ## vLLM source
    `CompilationConfig.post_init_cudagraph_sizes`, called at the end of
    `VllmConfig._set_cudagraph_sizes`, which runs only on platforms with
    static graphs (CUDA, not the CPU the vllm-oracle validates on): checked
    against vLLM's source only.
    """

    code = "SL750"
    name = "compile-sizes-string"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if ctx.target != "cuda" or not inv.flags_for("compilation_config") or first_problem(inv) is not None:
            return
        got = config_object(inv, "compilation_config")
        if got is None or got[1] is None:
            return
        cfg, flag = got
        sizes = cfg.get("compile_sizes")
        if not isinstance(sizes, list):
            return
        # vLLM de-duplicates with set() first: which bad name it names is the set's order.
        bad = sorted({s for s in sizes if isinstance(s, str) and s != "cudagraph_capture_sizes"})
        if not bad:
            return
        got_msg = vllm_message(ctx, _CHECK.key, bad[0]) if len(bad) == 1 else None
        yield finding(ctx, flag, got_msg, _CHECK.key,
                      message=None if got_msg else f"compile_sizes names unknown size lists {bad}: only "
                                                   "'cudagraph_capture_sizes' is known",
                      note="key 'compile_sizes' of --compilation-config")
