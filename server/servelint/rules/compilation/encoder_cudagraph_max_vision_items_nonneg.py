"""SL747: a negative encoder CUDA graph vision-item budget."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import VISION_ITEMS, report


class EncoderCudagraphMaxVisionItemsNonneg(Rule):
    """A negative `encoder_cudagraph_max_vision_items_per_batch` with encoder CUDA graphs on.

    ## What it does
    Reports `--compilation-config` `encoder_cudagraph_max_vision_items_per_batch`
    below 0 when the same JSON turns `cudagraph_mm_encoder` on.

    ## Why
    0 means "infer it"; a negative count means nothing and `CompilationConfig`
    stops: "encoder_cudagraph_max_vision_items_per_batch must be non-negative
    (0 = auto-infer)".

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct -cc '{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_vision_items_per_batch": -1}'
    ```

    ## Fix
    Use 0 (infer) or a positive count.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, the encoder CUDA graph checks.
    """

    code = "SL747"
    name = "encoder-cudagraph-max-vision-items-nonneg"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (VISION_ITEMS,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, VISION_ITEMS)
