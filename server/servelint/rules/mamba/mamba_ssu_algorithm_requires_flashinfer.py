"""SL382: `--mamba-ssu-algorithm` without the FlashInfer Mamba backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown, value_of
from ...derive.mamba import mamba_backend
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("mamba.ssu_algorithm_flashinfer", "Mamba SSU algorithm selection is only supported with the",
                   "vllm/config/mamba.py")


class MambaSsuAlgorithmRequiresFlashinfer(Rule):
    """`--mamba-ssu-algorithm` with a Mamba backend other than FlashInfer.

    ## What it does
    Reports `--mamba-ssu-algorithm` (any algorithm, `auto` included) when
    `--mamba-backend` is not `flashinfer` (its default is `triton`).

    ## Why
    Only FlashInfer's selective-state-update kernel has several algorithms
    to choose from. `MambaConfig.validate_ssu_algorithm`, run by
    `create_engine_config` on every model (not only Mamba ones), stops the
    launch: "Mamba SSU algorithm selection is only supported with the
    FlashInfer backend. Please set `--mamba-backend flashinfer`, or omit
    `--mamba-ssu-algorithm`."

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --mamba-ssu-algorithm simple
    ```

    ## Fix
    Add `--mamba-backend flashinfer`, or drop `--mamba-ssu-algorithm`.

    ## Evidence
    Both flags as written (`--mamba-backend` in any letter case, or its
    default); a value the file does not show, or a backend name vLLM does
    not know (SL211), keeps the rule silent.

    ## vLLM source
    `MambaConfig.validate_ssu_algorithm`, after the algorithm-name check
    (which argparse's choices make unreachable from the command line).
    """

    code = "SL382"
    name = "mamba-ssu-algorithm-requires-flashinfer"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mamba-ssu-algorithm"
    partners = ("--mamba-backend",)
    requires = ("--mamba-ssu-algorithm",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        algo = value_of(inv, "mamba_ssu_algorithm")
        if algo.how != "flag" or algo.value in (None, "None"):
            return
        backend = mamba_backend(inv)
        if not backend.known or backend.value == "FLASHINFER":
            return
        if backend.how == "default" and defaults_unknown(inv):
            return  # a --config file: the command line may set --mamba-backend
        yield finding(ctx, algo.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, backend.flags, "Mamba backend set by {flag}"))
