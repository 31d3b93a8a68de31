"""SL741: a `--compilation-config` cudagraph_mode name vLLM does not know."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import CUDAGRAPH_MODES, report


class CudagraphModeUnknown(Rule):
    """A `--compilation-config` `cudagraph_mode` name that is not a CUDA graph mode.

    ## What it does
    Reports a string `cudagraph_mode` in `--compilation-config` (`-cc`) that
    is not one of `NONE`, `PIECEWISE`, `FULL`, `FULL_DECODE_ONLY`,
    `FULL_AND_PIECEWISE` (any case).

    ## Why
    `CompilationConfig` looks the name up with `CUDAGraphMode[value.upper()]`;
    an unknown name raises a bare `KeyError` (`KeyError: 'FULL_DECODE'`)
    that escapes argparse as a traceback instead of an error message.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"cudagraph_mode": "full_decode"}'
    ```

    ## Fix
    Use one of the mode names, e.g. `FULL_DECODE_ONLY`.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release or a
    value's type is not the field's.

    ## vLLM source
    `CompilationConfig.validate_cudagraph_mode_before` (vllm/config/compilation.py,
    0.33.0:878): no message of vLLM's own, only the `KeyError`, so servelint
    words the finding itself (vLLM's traceback ends in `KeyError: '<NAME>'`).
    Read in 0.25.0-0.33.0.
    """

    code = "SL741"
    name = "cudagraph-mode-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, None, "--compilation-config cudagraph_mode {0!r} is not a CUDA graph mode: vLLM stops "
                                     "with KeyError: {0!r} (modes: " + ", ".join(CUDAGRAPH_MODES) + ")")
