"""SL001: the file, or the part holding a launch, does not parse."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class ParseError(ParseProblemRule):
    """The file, or the part of it holding a launch, does not parse.

    ## What it does
    Reports YAML syntax errors, unterminated quotes and heredocs, and other
    syntax errors next to a vLLM launch, at the place the parser stopped.

    ## Why
    A launch that does not parse cannot be checked, and the shell or YAML
    loader will fail the same way before vLLM even starts.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --served-model-name "qwen
    ```

    ## Fix
    Close the quote, heredoc or bracket the message points at.

    ## Evidence
    The file's text only, as the shell or YAML loader reads it; no release
    is needed. A launch the parser cannot read gets no other finding.
    """

    code = "SL001"
    name = "parse-error"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.PARSE_ERROR
