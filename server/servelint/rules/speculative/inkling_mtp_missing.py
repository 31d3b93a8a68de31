"""SL421: an Inkling draft whose checkpoint has no MTP layers."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_site, key_finding, loaded_draft, speculative_written

_CHECK = VllmCheck(
    "speculative.inkling_mtp_missing", "The Inkling checkpoint does not contain MTP weights",
    "vllm/config/speculative.py", whole=True,
)
_INKLING_TYPES = ("inkling_mm_model", "inkling_model")


class InklingMtpMissing(Rule):
    """An Inkling draft whose config.json declares no MTP layers.

    ## What it does
    Reports a speculative config whose draft is an Inkling checkpoint
    (`model_type` `inkling_model` or `inkling_mm_model`; with `method: mtp`
    and no `model`, the served model itself) when its config.json's
    `mtp_config` is missing or sets `num_nextn_predict_layers` below 1.

    ## Why
    vLLM drafts with the checkpoint's own MTP layers, counted in
    `mtp_config`. It stops with "The Inkling checkpoint does not contain
    MTP weights".

    ## Example
    ```sh
    vllm serve ./inkling --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Use an Inkling checkpoint with MTP weights, or another method
    (`ngram`, a separate draft model).

    ## Evidence
    The speculative config as written and the draft's config.json (for
    MTP without a `model`, the served model's own; silent when
    `--hf-overrides` is written), whose architecture the release
    registers.

    ## vLLM source
    `SpeculativeConfig.hf_config_override`, which vLLM applies to the
    draft's config when it loads it.
    """

    code = "SL421"
    name = "inkling-mtp-missing"
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
        if draft is None or draft.get("model_type") not in _INKLING_TYPES:
            return
        mtp = draft.get("mtp_config")
        if mtp is None:
            mtp = {}
        if not isinstance(mtp, dict):
            return
        depths = mtp.get("num_nextn_predict_layers", 0)
        if not is_int(depths) or depths >= 1:
            return
        key, where = draft_site(p)
        shown = "has no mtp_config" if "mtp_config" not in draft else f"sets num_nextn_predict_layers {depths}"
        yield key_finding(ctx, p.args, key, _CHECK.needle, _CHECK.key, note=f"{where} config.json {shown}")
