"""SL004: a vLLM argument built from a variable the file shows empty where vLLM reads it."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class UnsetVariable(ParseProblemRule):
    """A vLLM argument is built from a variable the file shows empty where vLLM reads it.

    ## What it does
    Reports a flag value or model written as `$VAR` / `${VAR}` when the file
    shows that vLLM would receive it empty or unexpanded: a variable the
    script sets without `export`, read by an inner `sh -c` script; a
    Dockerfile build `ARG`, which is gone when the container runs; a
    Kubernetes `$(VAR)` that the container's `env` does not define (the
    program receives the literal text).

    ## Why
    vLLM then receives an empty string (or the literal `$(VAR)`) and fails,
    or silently uses a default.

    ## Example
    ```sh
    TP=2
    sh -c 'vllm serve Qwen/Qwen3-8B --tensor-parallel-size "$TP"'
    ```

    ## Fix
    Export the variable (`export TP=2`), define it in the container's `env`
    (an `ENV` for a Dockerfile), or write a default: `${TP:-1}`.

    ## Evidence
    The file's text only. A variable the file never sets is an *input*,
    given by whoever runs the file: it is not reported, and every rule that
    needs its value stays silent (`servelint check --show-launches` lists a
    launch's inputs and the guards the file shows for them).
    """

    code = "SL004"
    name = "unset-variable"
    category = Category.CONFIG
    severity = Severity.WARNING
    problem = problems.UNSET_VARIABLE
