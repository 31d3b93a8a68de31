"""SL006: a value the launch form does not pass on as written."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class FormValue(ParseProblemRule):
    """A value is written in a way the launch form will not pass on as meant.

    ## What it does
    Reports, for example, a Kubernetes `args:` item that is a YAML number or
    boolean instead of a string.

    ## Why
    Kubernetes rejects non-string `args` items when the manifest is applied;
    other forms convert them in surprising ways.

    ## Example
    ```yaml
    containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args: ["Qwen/Qwen3-8B", "--tensor-parallel-size", 2]
    ```

    ## Fix
    Quote the value: `- "2"`.

    ## Evidence
    The file's text only: the YAML type of the item, in a form whose loader
    requires strings (Kubernetes `args`/`command`, compose lists, Dockerfile
    JSON arrays).
    """

    code = "SL006"
    name = "form-value"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.FORM_VALUE
