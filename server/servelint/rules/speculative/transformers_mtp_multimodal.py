"""SL447: MTP on a multimodal model served by the Transformers modeling backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import hf_text_config
from ...derive.speculative import proposer, target_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, speculative_written

_MESSAGE = "The Transformers modeling backend does not support MTP for multimodal models yet."
_CHECK = VllmCheck("speculative.transformers_mtp_multimodal", _MESSAGE, "vllm/config/speculative.py", whole=True)


class TransformersMtpMultimodal(Rule):
    """MTP on a multimodal model served by the Transformers modeling backend.

    ## What it does
    Reports `"method": "mtp"` (or a deprecated MTP method name, which vLLM
    renames to `mtp`) with `--model-impl transformers` when the served
    model is multimodal (its config.json nests a `text_config`) and that
    text config sets `num_mtp_layers`.

    ## Why
    For a model with `num_mtp_layers`, the Transformers modeling backend
    builds the MTP draft from the target's own layers, which it supports
    for text-only models only. vLLM stops with "The Transformers modeling
    backend does not support MTP for multimodal models yet."

    ## Example
    ```sh
    vllm serve ./my-vlm-with-mtp --model-impl transformers \\
        --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Use vLLM's own implementation of the model (`--model-impl vllm` or
    `auto`, where vLLM has one), or another speculative method.

    ## Evidence
    `--model-impl transformers` as written (silent with `auto`, where the
    backend is vLLM's choice), the speculative config as written and the
    served model's config.json with `num_mtp_layers` written in its
    `text_config` (silent with `--hf-overrides`).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, at the start of the branch that loads
    a draft model (`using_transformers_mtp`), before the draft's
    `ModelConfig` is built.
    """

    code = "SL447"
    name = "transformers-mtp-multimodal"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.model is None or p.fails not in (None, "unsupported") or p.branch not in ("draft", None):
            return
        if p.args.method != "mtp" and p.renamed is None:
            return  # the check reads the method before detecting one from the draft
        impl = value_of(ctx.invocation, "model_impl")
        if impl.how != "flag" or impl.value != "transformers":
            return
        target = target_config(ctx)
        if target is None or not isinstance(target.get("text_config"), dict):
            return
        text = hf_text_config(target)
        if text is None or text is target or text.get("num_mtp_layers") is None:
            return
        yield key_finding(ctx, p.args, "method", _MESSAGE, _CHECK.key,
                          note="the model is multimodal (its config.json nests a text_config)")
