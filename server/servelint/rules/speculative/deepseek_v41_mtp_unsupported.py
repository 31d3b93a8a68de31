"""SL419: MTP speculative decoding on DeepSeek-V4.1, which has no classic-MTP draft."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import model_config
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, settled_method, speculative_written

_CHECK = VllmCheck(
    "speculative.deepseek_v41_mtp", "DeepSeek V4.1 has no classic-MTP draft", "vllm/config/speculative.py",
)
_MESSAGE = (
    "DeepSeek V4.1 has no classic-MTP draft: its checkpoints ship DSpark stages under mtp.* "
    "(main_proj/markov_head/confidence_head) and carry no e_proj/h_proj/enorm/hnorm/hc_head weights. Use "
    "speculative method 'dspark' instead of 'mtp'."
)


class DeepseekV41MtpUnsupported(Rule):
    """MTP speculative decoding on a DeepSeek-V4.1 model.

    ## What it does
    Reports a speculative config that vLLM settles on `mtp` (written, or
    detected from an MTP-capable draft) when the served model is
    DeepSeek-V4.1 (`model_type` `deepseek_v41` in its config.json).

    ## Why
    DeepSeek-V4.1 checkpoints carry DSpark stages where DeepSeek-V3/V4 have
    their MTP layers, so there are no classic MTP weights to draft with.
    vLLM stops with "DeepSeek V4.1 has no classic-MTP draft: ... Use
    speculative method 'dspark' instead of 'mtp'."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4.1 --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Use `"method": "dspark"`.

    ## Evidence
    The speculative config as written and the served model's config.json
    (silent when `--hf-overrides` is written); for a separate draft, its
    config.json decides whether vLLM takes it for MTP.

    ## vLLM source
    `SpeculativeConfig.__post_init__`, where the method is detected from
    the draft (after `hf_config_override` made a DeepSeek draft a
    `deepseek_mtp` one).
    """

    code = "SL419"
    name = "deepseek-v41-mtp-unsupported"
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
        if settled_method(p) != "mtp" or p.branch != "draft":
            return
        target = model_config(ctx)
        if target is None or target.get("model_type") != "deepseek_v41":
            return
        yield key_finding(ctx, p.args, "method", _MESSAGE, _CHECK.key)
