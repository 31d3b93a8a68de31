"""SL905: a `--watermark-config` key that does not fit in 64 bits."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import watermark_config

_CHECK = VllmCheck("watermarking.key_64bit", "philox keys must fit in 64 bits", "vllm/config/watermarking.py")


class WatermarkKeyAbove64Bits(Rule):
    """`--watermark-config` `key` of more than 64 bits.

    ## What it does
    Reports a `key` in `--watermark-config` above 2^64 - 1
    (18446744073709551615).

    ## Why
    The Philox generator seeds from a 64-bit key. `WatermarkConfig` stops
    the launch: "philox keys must fit in 64 bits".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --watermark-config '{"key": 18446744073709551616}'
    ```

    ## Fix
    Use a key between 0 and 18446744073709551615.

    ## Evidence
    The JSON as written (dotted keys merged); an unknown key or a
    non-integer `key` is refused by pydantic first (invalid-value), and a
    value servelint cannot read keeps the rule silent.

    ## vLLM source
    `WatermarkConfig.validate_watermark_settings`.
    """

    code = "SL905"
    name = "watermark-key-above-64-bits"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--watermark-config"
    requires = ("--watermark-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = watermark_config(ctx)
        if cfg is None or cfg.value["key"] <= 2**64 - 1:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key)
