"""Problems the parsers see in the file itself, before any vLLM release applies.

The parsers report these by name (``servelint.parse.problems``); the classes
here give each its code, severity and documentation.  They have no ``check``:
the engine turns the parser's problems into findings.
"""

from __future__ import annotations

from ..diagnostics import Applicability, Category, Severity
from ..parse import problems
from .base import Rule


class ParseProblemRule(Rule):
    """Base for problems found by a parser (no invocation needed)."""

    problem: str = ""
    reads = frozenset()

    def check(self, ctx):  # pragma: no cover - the engine uses the parser's problems
        return ()


class ParseError(ParseProblemRule):
    """The file, or the part of it holding a launch, does not parse.

    ## What it does
    Reports YAML syntax errors, unterminated quotes and heredocs, and other
    syntax errors next to a vLLM launch, at the place the parser stopped.

    ## Why
    A launch that does not parse cannot be checked, and the shell or YAML
    loader will fail the same way before vLLM even starts.

    ## Fix
    Close the quote, heredoc or bracket the message points at.
    """

    code = "SL001"
    name = "parse-error"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.PARSE_ERROR


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
    """

    code = "SL002"
    fixes = frozenset({Applicability.SAFE})
    name = "config-equals-ignored"
    category = Category.CONFIG
    severity = Severity.ERROR
    problem = problems.CONFIG_EQUALS_IGNORED


class UnsetVariable(ParseProblemRule):
    """A vLLM argument is built from a variable that nothing sets.

    ## What it does
    Reports a flag value or model written as `$VAR` / `${VAR}` when nothing
    in the file sets `VAR` and no default (`${VAR:-default}`) is written.

    ## Why
    If the variable is unset at launch, vLLM receives an empty string (or, in
    forms without a shell, the literal text) and fails or silently uses a
    default. servelint cannot check the value either.

    ## Fix
    Set the variable in the file, or write a default: `${TP:-1}`.
    """

    code = "SL004"
    name = "unset-variable"
    category = Category.CONFIG
    severity = Severity.WARNING
    problem = problems.UNSET_VARIABLE


class ServeRepeated(ParseProblemRule):
    """The container already runs `vllm serve`, and the arguments say `serve` again.

    ## What it does
    Reports `serve` or `vllm serve` at the start of the arguments given to an
    image whose entrypoint is already `vllm serve` (`vllm/vllm-openai`):
    compose `command:`, Kubernetes `args:` without `command:`, Dockerfile `CMD`,
    and the arguments after the image in `docker run`.

    ## Why
    The image's `ENTRYPOINT ["vllm", "serve"]` comes first, so vLLM sees
    `vllm serve serve ...` and stops with `unrecognized arguments: serve`
    (or takes `serve` as the model name).

    ## Fix
    Drop `serve` (and `vllm`) from the arguments, or override the entrypoint.

    ## Fix safety
    Safe: the image already runs `vllm serve`, so removing the repeated `serve`
    (and `vllm`) leaves the launch vLLM was meant to get.
    """

    code = "SL005"
    fixes = frozenset({Applicability.SAFE})
    name = "serve-repeated"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.SERVE_REPEATED


class FormValue(ParseProblemRule):
    """A value is written in a way the launch form will not pass on as meant.

    ## What it does
    Reports, for example, a Kubernetes `args:` item that is a YAML number or
    boolean instead of a string.

    ## Why
    Kubernetes rejects non-string `args` items when the manifest is applied;
    other forms convert them in surprising ways.

    ## Fix
    Quote the value: `- "2"`.
    """

    code = "SL006"
    name = "form-value"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.FORM_VALUE


PARSE_RULES = (ParseError, ConfigEqualsIgnored, UnsetVariable, ServeRepeated, FormValue)
BY_PROBLEM = {cls.problem: cls for cls in PARSE_RULES}

# Parse problems that an invocation rule judges with the release's knowledge
# (SL003 needs the option's default): the engine does not report them itself.
JUDGED_BY_RULES = frozenset({problems.CONFIG_FALSE_DROPPED})
