"""SL746: a decoder-replay CUDA graph size of zero or less."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import DECODER_SIZES, report


class DecoderReplayCaptureSizesPositive(Rule):
    """A `decoder_replay_cudagraph_capture_sizes` entry of zero or less.

    ## What it does
    Reports `--compilation-config` `decoder_replay_cudagraph_capture_sizes`
    holding a size at most 0.

    ## Why
    Each size is a batch size a CUDA graph is captured for; `CompilationConfig`
    stops: "All decoder_replay_cudagraph_capture_sizes must be positive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"decoder_replay_cudagraph_capture_sizes": [0, 8]}'
    ```

    ## Fix
    Drop the sizes below 1.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, after the backend check.
    """

    code = "SL746"
    name = "decoder-replay-capture-sizes-positive"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (DECODER_SIZES,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, DECODER_SIZES)
