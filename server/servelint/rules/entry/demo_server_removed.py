"""SL021: `python -m vllm.entrypoints.api_server`, in a release without it."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Applicability, Category, Severity
from ...knowledge import history
from ...model import Entry
from ..base import Context, Finding, Rule, version_key
from ._shared import to_vllm_serve

_MODULE = "vllm.entrypoints.api_server"


class DemoServerRemoved(Rule):
    """`python -m vllm.entrypoints.api_server` in a release that no longer has it.

    ## What it does
    Reports a launch of vLLM's old demo server (the module
    `vllm.entrypoints.api_server`, with its `/generate` endpoint) in a
    release whose package has no such module.

    ## Why
    The demo server was removed from vLLM: in those releases Python stops
    with `No module named vllm.entrypoints.api_server` before vLLM parses a
    single flag. Scripts copied from old benchmarks and tutorials still
    start it.

    ## Example
    ```sh
    python -m vllm.entrypoints.api_server --model facebook/opt-125m --port 8001
    ```

    ## Fix
    Start the OpenAI-compatible server instead: `vllm serve facebook/opt-125m
    --port 8001`. Its API differs: clients that POST to `/generate` must
    move to `/v1/completions`.

    ## Fix safety
    Unsafe: the launch runs again, but it serves another API than the
    script's clients may call, and `vllm serve` must be on the `PATH` where
    the launch runs, which the file does not show.

    ## Evidence
    The entry point as the file writes it and the release the file runs
    (the newest known when the file pins none: the diagnostic names it).
    Which releases ship the module is generated from each release's wheel
    (`knowledge`); a release whose demo-server parser could not be built is
    not judged. The flags are not judged either: no parser reads them.
    """

    code = "SL021"
    name = "demo-server-removed"
    category = Category.DEPRECATED
    severity = Severity.ERROR
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"model"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        launch = ctx.invocation.launch
        if launch.entry is not Entry.DEMO_SERVER or launch.entry_unknown or launch.build is not None:
            return
        kn = ctx.invocation.knowledge
        if kn.release.ships("demo_api_server") is not False:
            return
        now = version_key(ctx.version)
        had = [v for v in history.releases_of("demo_api_server") if version_key(v) < now]
        since = f" (the last release with it is {had[-1]})" if had else ""
        yield Finding(
            launch.entry_span,
            f"vLLM {ctx.version} has no module `{_MODULE}`{since}: the launch stops with "
            f"`No module named {_MODULE}`; start the OpenAI-compatible server with `vllm serve MODEL` "
            "(its clients call /v1/completions, not /generate)",
            vllm_message="No module named vllm.entrypoints.api_server",
            fixes=to_vllm_serve(ctx, _MODULE),
        )
