"""SL745: a custom compile backend with mode VLLM_COMPILE."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import BACKEND, report


class CompilationBackendInvalidForVllmCompile(Rule):
    """A `--compilation-config` `backend` other than `inductor` or `eager` with mode `VLLM_COMPILE`.

    ## What it does
    Reports `backend` set to anything but `""`, `eager` or `inductor` when
    the same `--compilation-config` sets `mode` to `VLLM_COMPILE` (3).

    ## Why
    vLLM's piecewise compilation runs only Inductor or eager; with the mode
    written `CompilationConfig` stops: "Invalid backend for piecewise
    compilation: cudagraphs". (With `mode` unwritten the backend is accepted
    and used as an out-of-tree backend.)

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"mode": 3, "backend": "cudagraphs"}'
    ```

    ## Fix
    Use `inductor` or `eager`, or a lower mode (1 or 2) for a Dynamo backend.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, after the `custom_ops` checks.
    """

    code = "SL745"
    name = "compilation-backend-invalid-for-vllm-compile"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (BACKEND,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, BACKEND)
