"""SL646: an encoder-cache producer-only instance of a text-only model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...derive.model import arch_facts
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message

_CHECK = VllmCheck("vllm.ec_producer_mm", "An EC producer-only instance requires a multimodal model.",
                   "vllm/config/vllm.py")


class EcProducerRequiresMmModel(Rule):
    """`--ec-transfer-config` with `"ec_role": "ec_producer"` on a model without a multimodal encoder.

    ## What it does
    Reports an `--ec-transfer-config` that names an `ec_connector` with
    `ec_role` `ec_producer` (an encoder-only instance: it runs the
    multimodal encoder and sends its embeddings) when the model's
    architecture takes no multimodal input.

    ## Why
    A producer-only instance runs nothing but the multimodal encoder; a
    text-only model has none. vLLM stops first thing while building its
    config: "An EC producer-only instance requires a multimodal model."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --ec-transfer-config '{"ec_connector": "ECExampleConnector", "ec_role": "ec_producer"}'
    ```

    ## Fix
    Serve the multimodal model on the producer, or use `ec_both` /
    `ec_consumer` (or no EC connector) for a text-only model.

    ## Evidence
    The EC transfer config's object as written and the architecture's
    registry facts (`supports_multimodal`, from its config.json); silent
    when either is not known.

    ## vLLM source
    `VllmConfig._resolve_mm_encoder_only`, the first step of
    `VllmConfig.__post_init__`; `ECTransferConfig.is_encode_only` is a
    producer role that is not a consumer one (vllm/config/ec_transfer.py).
    """

    code = "SL646"
    name = "ec-producer-requires-mm-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--ec-transfer-config"
    requires = ("--ec-transfer-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ec = json_of(inv, "ec_transfer_config")
        if ec.how != "flag" or not ec.flags or not json_keys_known(inv, "ec_transfer_config", ec.value):
            return
        if not isinstance(ec.value.get("ec_connector"), str) or ec.value.get("ec_role") != "ec_producer":
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal is not False:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        note = model_note(ctx)
        yield finding(ctx, ec.flags[-1], message, _CHECK.key, related_to=[note] if note else [])
