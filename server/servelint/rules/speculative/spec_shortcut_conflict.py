"""SL440: a `--spec-*` shortcut and the same key in `--speculative-config`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


_CHECK = VllmCheck(
    "speculative.shortcut_conflict", "{} and --speculative-config['{}'] are mutually exclusive", "vllm/engine/arg_utils.py",
)
# ``create_speculative_config``'s shortcuts and the keys they set, in its order.
_SHORTCUTS = (("spec_method", "--spec-method", "method"), ("spec_model", "--spec-model", "model"),
              ("spec_tokens", "--spec-tokens", "num_speculative_tokens"))


class SpecShortcutConflict(Rule):
    """`--spec-method`, `--spec-model` or `--spec-tokens` together with the same key in `--speculative-config`.

    ## What it does
    Reports a `--spec-method`, `--spec-model` or `--spec-tokens` flag when
    `--speculative-config` (as JSON or dotted keys) sets the key the
    shortcut stands for: `method`, `model` or `num_speculative_tokens`.

    ## Why
    The shortcuts fill in keys of the speculative config; vLLM refuses to
    choose between two values: "--spec-tokens and
    --speculative-config['num_speculative_tokens'] are mutually exclusive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --spec-tokens 3 --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'
    ```

    ## Fix
    Keep one of the two: drop the shortcut, or the key from the JSON.

    ## Evidence
    The flags as written. vLLM compares the keys as written, before it
    turns "-" into "_": `num-speculative-tokens` does not clash.

    ## vLLM source
    `EngineArgs.create_speculative_config`.
    """

    code = "SL440"
    name = "spec-shortcut-conflict"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--spec-method", "--spec-model", "--spec-tokens", "--speculative-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("speculative_config") is None:
            return
        if all(inv.knowledge.by_dest.get(dest) is None or inv.last(dest) is None for dest, _, _ in _SHORTCUTS):
            return
        cfg = json_of(inv, "speculative_config")
        if not cfg.known or not isinstance(cfg.value, dict) or not cfg.value:
            return
        for dest, name, key in _SHORTCUTS:
            if inv.knowledge.by_dest.get(dest) is None or inv.last(dest) is None:
                continue
            v = value_of(inv, dest)
            if v.how != "flag" or v.value is None:
                continue
            if key not in cfg.value:
                continue
            flag = v.flags[-1]
            message = f"{name} and --speculative-config['{key}'] are mutually exclusive"
            yield finding(ctx, flag, message, _CHECK.key, related_to=related(ctx, cfg.flags, f"'{key}' is set here"))
            return
