"""SL420: a dots3 draft whose `mtp_layer_types` does not list one type per MTP layer."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_site, key_finding, loaded_draft, speculative_written

_CHECK = VllmCheck(
    "speculative.dots3_mtp_layer_types", "mtp_layer_types must have one entry per MTP layer: got {} for {} layers",
    "vllm/config/speculative.py",
)


class Dots3MtpLayerTypesLength(Rule):
    """A dots3 draft whose `mtp_layer_types` does not list one attention type per MTP layer.

    ## What it does
    Reports a speculative config whose draft is a `dots3_note` checkpoint
    (with `method: mtp` and no `model`, the served model itself) when its
    config.json's `mtp_layer_types` has another length than
    `num_nextn_predict_layers` (1 when unset, the default of vLLM's
    `Dots3NoteConfig`).

    ## Why
    vLLM builds the draft's layer list from the target's `layer_types`
    plus one entry per MTP layer. It stops with "mtp_layer_types must have
    one entry per MTP layer: got 2 for 1 layers".

    ## Example
    ```sh
    # config.json: "num_nextn_predict_layers": 1, "mtp_layer_types": ["sliding_attention", "sliding_attention"]
    vllm serve ./dots3-note --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Make `mtp_layer_types` list one type per MTP layer (or drop it: vLLM
    then uses sliding attention for each).

    ## Evidence
    The speculative config as written and the draft's config.json (for
    MTP without a `model`, the served model's own; silent when
    `--hf-overrides` is written), whose architecture the release
    registers.

    ## vLLM source
    `SpeculativeConfig.hf_config_override`, which vLLM applies to the
    draft's config when it loads it.
    """

    code = "SL420"
    name = "dots3-mtp-layer-types-length"
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
        draft = loaded_draft(ctx, p)
        if draft is None or draft.get("model_type") != "dots3_note":
            return
        types = draft.get("mtp_layer_types")
        if not isinstance(types, list):
            return
        layers = draft.get("num_nextn_predict_layers", 1)
        if not is_int(layers) or len(types) == layers:
            return
        message = f"mtp_layer_types must have one entry per MTP layer: got {len(types)} for {layers} layers"
        key, where = draft_site(p)
        yield key_finding(ctx, p.args, key, message, _CHECK.key, note=f"from {where} config.json")
