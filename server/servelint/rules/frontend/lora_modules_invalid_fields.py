"""SL724: a `--lora-modules` JSON item with a key `LoRAModulePath` does not have."""

from __future__ import annotations

import json
from typing import Iterable

from ...derive.lora_modules import lora_module_fields
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("lora_modules.invalid_fields", "Invalid fields for --lora-modules: ")


class LoraModulesInvalidFields(Rule):
    """A `--lora-modules` JSON item with a key `LoRAModulePath` does not have.

    ## What it does
    Reports a JSON item of `--lora-modules` that has `name` and `path` and
    also a key that is not a field of `LoRAModulePath` (`name`, `path`,
    `base_model_name`, `is_3d_lora_weight` in 0.25.0-0.33.0).

    ## Why
    vLLM builds each JSON item as `LoRAModulePath(**item)` while it parses
    the command line and stops with "Invalid fields for --lora-modules:
    {"name": "sql", "path": "/loras/sql", "base_model": "m"} -
    LoRAModulePath.__init__() got an unexpected keyword argument
    'base_model'".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B --enable-lora \\
        --lora-modules '{"name": "sql", "path": "/loras/sql", "base_model": "meta-llama/Llama-3.1-8B"}'
    ```

    ## Fix
    Use the field names exactly: `name`, `path`, `base_model_name`.

    ## Evidence
    Each `--lora-modules` item as written (CLI, `--config` list) and the
    release's `LoRAModulePath` fields, generated from its wheel
    (`knowledge/data/lora_module_fields.json`). An item that is not JSON,
    not an object, or lacks `name` or `path` is invalid-value's (SL103); an
    item only known at run time is not judged. The message's second half is
    Python's own `TypeError` text (Python 3.10 and later, which every
    release 0.25.0-0.33.0 requires).

    ## vLLM source
    `LoRAParserAction` (vllm/entrypoints/common/cli_args.py in 0.33.0,
    launchers/cli_args.py in 0.29.0-0.32.0, openai/cli_args.py before);
    the fields are the `LoRAModulePath` dataclass
    (vllm/entrypoints/openai/models/protocol.py). vLLM's oracle records the
    argparse error without a message the conformance test can join to a
    check: golden case.
    """

    code = "SL724"
    name = "lora-modules-invalid-fields"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--lora-modules"
    requires = ("--lora-modules",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        known = lora_module_fields(ctx.version)
        if known is None:
            return
        fields, required = known
        for flag in inv.flags_for("lora_modules"):
            opt = flag.option
            if opt is None or opt.action != "LoRAParserAction" or flag.missing_value or flag.dotted_key is not None:
                continue
            for word in flag.values:
                if not word.exact:
                    continue
                key = _unknown_key(word.text, fields, required)
                if key is None:
                    continue
                error = f"LoRAModulePath.__init__() got an unexpected keyword argument '{key}'"
                message = vllm_message(ctx, _CHECK.key, word.text, error)
                if message is not None:
                    yield finding(ctx, flag, message, _CHECK.key)


def _unknown_key(item: str, fields: tuple, required: tuple) -> str | None:
    """The first key of JSON item ``item`` that ``LoRAModulePath`` has no
    field for, when the item reaches ``LoRAModulePath(**item)`` with every
    required field (else SL103's, or accepted)."""
    if item in ("", "None") or ("=" in item and "," not in item):
        return None  # skipped, or the name=path form
    try:
        value = json.loads(item)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not all(k in value for k in required):
        return None
    return next((k for k in value if k not in fields), None)
