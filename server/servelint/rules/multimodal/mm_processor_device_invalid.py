"""SL919: a `"device"` in `--mm-processor-kwargs` that is no torch device."""

from __future__ import annotations

import re
from typing import Iterable

from ...derive.flags import json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import builds_multimodal_config, model_related

_CHECK = VllmCheck("multimodal.processor_device_invalid", 'Invalid "device" in mm_processor_kwargs: {}. Expected a ',
                   "vllm/config/multimodal.py")

# The grammar of a torch device string, the same for every device type and
# every torch release vLLM supports (c10/core/Device.cpp:
# ``([a-zA-Z_]+)(?::([1-9]\d*|0))?``, ASCII letters only). A string outside
# it is refused whatever torch and backends are installed; a string inside
# it may still name no device type, which depends on the installed torch
# (and its out-of-tree backends), so servelint does not judge it.
_GRAMMAR = re.compile(r"[A-Za-z_]+(?::(?:0|[1-9][0-9]*))?")


def refused(device) -> bool:
    """Whether ``torch.device(device)`` refuses the value in any torch: a
    string outside the grammar, or a JSON value of another type than a
    string or an integer (an integer is an index of the current
    accelerator, valid or not depending on the machine)."""
    if isinstance(device, str):
        return _GRAMMAR.fullmatch(device) is None
    if isinstance(device, bool):
        return True
    return isinstance(device, (float, list, dict))


class MmProcessorDeviceInvalid(Rule):
    """A `"device"` in `--mm-processor-kwargs` that `torch.device` cannot parse.

    ## What it does
    Reports a `"device"` of `--mm-processor-kwargs`, for a multimodal
    model, that is not a torch device: a string that is not a device type
    optionally followed by `:` and an index (`"cuda:01"`, `"cuda:-1"`,
    `" cpu"`, `""`, `"cuda0"`), or a number with a fraction, a boolean, a
    list or an object.

    ## Why
    `MultiModalConfig` parses the device with `torch.device` when vLLM
    builds its configuration, and stops: "Invalid \\"device\\" in
    mm_processor_kwargs: 'cuda:01'. Expected a torch device such as
    \\"cpu\\", \\"cuda\\" or \\"cuda:0\\"."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-processor-kwargs '{"device": "cuda:01"}'
    ```

    ## Fix
    Use `"cpu"` (or `--mm-processor-device cpu`), or drop `"device"`.

    ## Evidence
    The written `--mm-processor-kwargs` and the model's architecture, a
    multimodal one in the release's registry (a text-only model builds no
    `MultiModalConfig` and vLLM ignores the key). A well-formed name that
    is no device type (`"gpu"`) is refused too, but which types exist
    depends on the installed torch and its backends: servelint stays
    silent on it, and on an integer (an index of the machine's
    accelerator).

    ## vLLM source
    `MultiModalConfig.get_mm_processor_device_type`, called while
    `VllmConfig` settles and validates the processor's device.
    """

    code = "SL919"
    name = "mm-processor-device-invalid"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-processor-kwargs"
    requires = ("--mm-processor-kwargs",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        kwargs = json_of(ctx.invocation, "mm_processor_kwargs")
        if kwargs.how != "flag" or not kwargs.known or not isinstance(kwargs.value, dict):
            return
        device = kwargs.value.get("device")
        if device is None or not refused(device):
            return
        if not builds_multimodal_config(ctx):
            return
        yield finding(ctx, kwargs.flags[-1], vllm_message(ctx, _CHECK.key, repr(device)), _CHECK.key,
                      related_to=model_related(ctx))
