"""SL720: `--api-server-count` above 1 with the Rust frontend, which ignores it."""

from __future__ import annotations

from typing import Iterable

from ...derive.serve import rust_frontend_on
from ...diagnostics import Applicability, Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import capped_api_server_count

_CHECK = VllmCheck("serve.rust_ignores_api_servers", "Ignoring --api-server-count=%d when using rust front-end process")


class RustFrontendIgnoresApiServerCount(Rule):
    """`--api-server-count` above 1 with the Rust frontend, which ignores it.

    ## What it does
    Reports an `--api-server-count` above 1 on a `vllm serve` launch whose
    environment sets `VLLM_USE_RUST_FRONTEND` to a non-zero integer.

    ## Why
    The Rust frontend is one multithreaded process. vLLM does not stop: it
    logs "Ignoring --api-server-count=4 when using rust front-end process"
    and starts one.

    ## Example
    ```sh
    VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --api-server-count 4
    ```

    ## Fix
    Remove `--api-server-count` (offered).

    ## Fix safety
    Safe: vLLM starts one frontend process either way.

    ## Evidence
    The flag as written and the variable in the launch's environment as the
    file shows it (a value only known at run time keeps the rule silent),
    for the `vllm serve` entry point. Silent with `--headless` (SL715).

    ## vLLM source
    Where `ServeSubcommand.cmd` settles the API server count for the Rust
    frontend's one process (golden case; the oracle does not run `cmd`).
    """

    code = "SL720"
    name = "rust-frontend-ignores-api-server-count"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--api-server-count"
    fixes = frozenset({Applicability.SAFE})
    requires = ("--api-server-count",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if rust_frontend_on(ctx) is not True:
            return
        capped = capped_api_server_count(ctx)
        if capped is None:
            return
        count, flags, fixes = capped
        var = ctx.invocation.env.get("VLLM_USE_RUST_FRONTEND")
        rel = [Related(ctx.path, var.span, "the Rust frontend turned on here")] if var is not None and var.span is not None else []
        message = f"Ignoring --api-server-count={count} when using rust front-end process"
        yield finding(ctx, flags[-1], None, _CHECK.key, message=message, fixes=fixes, related_to=rel)
