"""SL020: `python -m vllm.entrypoints.openai.api_server`, which vLLM deprecates."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ...model import Entry
from ..base import Context, Finding, Rule, vllm_source
from ._shared import to_vllm_serve

_DEPRECATED = VllmCheck(
    "entry.api_server_deprecated",
    "The `python -m vllm.entrypoints.openai.api_server` command is deprecated ",
    "vllm/entrypoints/openai/api_server.py",
)


class DeprecatedEntryPoint(Rule):
    """`python -m vllm.entrypoints.openai.api_server` in a release that deprecates it.

    ## What it does
    Reports a launch that starts vLLM's OpenAI server as the module
    `vllm.entrypoints.openai.api_server`, in a release whose module warns
    that this way of starting it is deprecated, and points at `vllm serve`.

    ## Why
    Run as `__main__`, the module prints a `DeprecationWarning` ("The `python
    -m vllm.entrypoints.openai.api_server` command is deprecated and may be
    removed in a future release") and then runs the same server as `vllm
    serve`. Scripts copied from older tutorials keep the module form; the day
    it is removed they stop starting.

    ## Example
    ```sh
    python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --port 8000
    ```

    ## Fix
    Start the server with `vllm serve Qwen/Qwen3-8B --port 8000`: the model
    becomes the positional argument, the other flags stay as they are. The
    fix is offered where the entry point is written as shell words with a
    plain interpreter name (`python`, `python3`, `python3.11`).

    ## Fix safety
    Unsafe: `vllm serve` is the command-line script of the same package, but
    it must be on the `PATH` where the launch runs, which the file does not
    show (a virtualenv's `python` may be called while its `bin/` is not on
    the `PATH`).

    ## Evidence
    The entry point as the file writes it (a shell command, a container's
    `command`, a Dockerfile's `ENTRYPOINT`) and the release the file runs.
    An image whose entry point is not shown in the file is not reported; for
    a compose service built from a Dockerfile, the Dockerfile's `ENTRYPOINT`
    is reported in the Dockerfile.
    """

    code = "SL020"
    name = "deprecated-entry-point"
    category = Category.DEPRECATED
    severity = Severity.WARNING
    vllm_checks = (_DEPRECATED,)
    reviewed = ("0.25.0", "0.33.0")
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"model"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        launch = ctx.invocation.launch
        if launch.entry is not Entry.API_SERVER or launch.entry_unknown:
            return
        if launch.build is not None:
            return  # the entry point is the built Dockerfile's ENTRYPOINT, reported where it is written
        yield Finding(
            launch.entry_span,
            f"`python -m vllm.entrypoints.openai.api_server` is deprecated in vLLM {ctx.version} "
            "and may be removed in a future release; start the server with `vllm serve MODEL`",
            tags=("deprecated",),
            fixes=to_vllm_serve(ctx, "vllm.entrypoints.openai.api_server"),
            data={"vllm_source": vllm_source(ctx, _DEPRECATED.key)},
        )
