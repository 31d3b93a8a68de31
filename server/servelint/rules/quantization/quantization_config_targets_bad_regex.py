"""SL918: a `re:` pattern of `--quantization-config` `targets` that does not compile."""

from __future__ import annotations

from typing import Iterable

import regex

from ...derive.quant_config import has_targets, shorthands
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, release_has, vllm_message
from ._shared import quant_config, type_error

_PATH = "vllm/config/quantization.py"
_CHECK = VllmCheck("quant_config.targets_bad_regex", "targets key {} is not a valid regex: {}", _PATH)
# vLLM compiles the patterns with the third-party ``regex`` module (whose
# grammar is wider than ``re``'s: ``\p{L}``, ...); servelint uses the same module.
_REGEX = VllmCheck("quant_config.regex_module", "import regex as re", _PATH, code=True)


def bad_pattern(ctx: Context, targets: dict) -> tuple[str, str] | None:
    """(pattern, the ``regex`` module's error) of the first ``re:`` key that
    ``_validate_targets`` refuses, or None: the pairs are checked in order,
    each value's shorthand before its pattern, so a bad shorthand first
    (quantization-config-targets-invalid) stops the loop before."""
    valid = shorthands(ctx.version) or ()
    for pattern, value in targets.items():
        if not isinstance(pattern, str) or not isinstance(value, str) or value not in valid:
            return None
        if pattern.startswith("re:"):
            try:
                regex.compile(pattern[3:])
            except regex.error as e:
                return pattern, str(e)
    return None


class QuantizationConfigTargetsBadRegex(Rule):
    """A `re:` layer pattern of `--quantization-config` `targets` that is not a valid regex.

    ## What it does
    Reports a key of `targets` in `--quantization-config` that starts with
    `re:` and whose rest does not compile as a regular expression (an
    unbalanced parenthesis, a bad escape, a quantifier with nothing to
    repeat, ...).

    ## Why
    A `re:` key selects the layers its pattern matches. argparse converts
    the option into `QuantizationConfigArgs`, which compiles each pattern
    and stops: "argument --quantization-config: 1 validation error for
    QuantizationConfigArgs ... targets key re:.*(proj is not a valid regex:
    missing ) at position 7".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization-config '{"targets": {"re:.*(proj": "fp8_per_block"}}'
    ```

    ## Fix
    Correct the pattern (escape a literal `(`, `[`, `+`, ... with `\\`).

    ## Evidence
    The JSON as written (dotted keys merged); from 0.30.0, the first
    release with `targets`. The pattern is compiled with the `regex`
    module, as vLLM does, and the error is that module's text. Silent when
    an earlier pair of `targets` maps to something that is not an online
    shorthand (quantization-config-targets-invalid reports it and vLLM
    stops there) and when a weight or activation name is not a string (the
    `TypeError` hides everything else).

    ## vLLM source
    `QuantizationConfigArgs._validate_targets`.
    """

    code = "SL918"
    name = "quantization-config-targets-bad-regex"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _REGEX)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization-config"
    requires = ("--quantization-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = quant_config(ctx)
        if cfg is None or not has_targets(ctx.version) or not release_has(ctx, _REGEX.key):
            return
        targets = cfg.value.get("targets")
        if not isinstance(targets, dict) or type_error(ctx, cfg.value) is not None:
            return
        bad = bad_pattern(ctx, targets)
        if bad is None:
            return
        pattern, error = bad
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, pattern, error), _CHECK.key)
