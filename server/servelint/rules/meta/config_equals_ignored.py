"""SL002: `--config=FILE`, which vLLM silently ignores."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class ConfigEqualsIgnored(ParseProblemRule):
    """`--config=FILE` is silently ignored by vLLM.

    ## What it does
    Reports `--config=file.yaml` written with `=`.

    ## Why
    vLLM only expands `--config` when the flag and the path are separate
    words (`FlexibleArgumentParser.parse_args`: `if "--config" in args`,
    vllm/utils/argparse_utils.py, 0.25.0–0.33.0). With `=`, argparse stores the
    path and nothing reads it: every setting in the file is silently lost.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --config=serve.yaml
    ```

    ## Fix
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --config serve.yaml
    ```

    ## Fix safety
    Safe: `--config FILE` is what `--config=FILE` was written to do; the fix
    only moves the `=`, so vLLM reads the file it was meant to read.

    ## Evidence
    The word `--config=...` as the launch writes it (after the shell's
    expansion); the same in every release servelint knows.
    """

    code = "SL002"
    fixes = frozenset({Applicability.SAFE})
    name = "config-equals-ignored"
    category = Category.CONFIG
    severity = Severity.ERROR
    problem = problems.CONFIG_EQUALS_IGNORED
