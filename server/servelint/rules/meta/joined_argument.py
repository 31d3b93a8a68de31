"""SL014: one argument holding a flag and its value (or several flags)."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Severity
from ...parse import problems
from ..base import ParseProblemRule


class JoinedArgument(ParseProblemRule):
    """One argument that holds a flag and its value, or several flags.

    ## What it does
    Reports an argv word with whitespace inside that starts with a flag: a
    Kubernetes or compose list item `"--quantization fp8"`, a quoted shell
    word `"--max-model-len 4096"`, a word with trailing whitespace.

    ## Why
    The program receives the item as one argument; no shell splits it.
    argparse's `_parse_optional` takes a word with a space in it that is not
    an option's exact string (nor a known option before `=`) as a positional
    ("if it contains a space, it was meant to be a positional",
    Lib/argparse.py), so vLLM stops with `unrecognized arguments: --quantization
    fp8` — or, written before the model, serves a model of that name. With
    `=` (`--max-model-len=4096 --enforce-eager`) argparse splits at the `=`
    and the first flag silently gets the rest as its value.

    ## Example
    ```yaml
    args:
      - Qwen/Qwen3-8B
      - "--quantization fp8"
    ```

    ## Fix
    ```yaml
    args:
      - Qwen/Qwen3-8B
      - --quantization
      - fp8
    ```

    ## Fix safety
    Splitting a word vLLM rejects (flag and value, several flags without
    `=`, trailing whitespace) is safe: the launch stops today, and the split
    passes what the file wrote. Splitting a `--flag=value --other` word is
    unsafe: vLLM accepts it today with a different value, and the split
    changes what the launch does.

    ## Evidence
    The word as the file writes it, after the form's own word splitting
    (a YAML item, a JSON array element, a quoted shell word). A word built
    from a variable is reported only when the file shows the variable's
    value; the fix is offered only when every character is written in the
    word itself.
    """

    code = "SL014"
    fixes = frozenset({Applicability.SAFE, Applicability.UNSAFE})
    name = "joined-argument"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR
    problem = problems.JOINED_ARGUMENT
