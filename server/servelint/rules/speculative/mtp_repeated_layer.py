"""SL431: `num_speculative_tokens` above 1 with an MTP draft, which reruns the same MTP layer."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, speculative_written

_CHECK = VllmCheck(
    "speculative.mtp_multiple_forward", "will run multiple times of forward on same MTP layer",
    "vllm/config/speculative.py",
)


class MtpRepeatedLayer(Rule):
    """More than one speculative token with an MTP draft: the MTP layer runs repeatedly.

    ## What it does
    Warns when vLLM detects an MTP draft (`method: mtp`, a model-specific
    MTP name, or a draft whose model type is an MTP one, such as DeepSeek-V3
    serving itself) and `num_speculative_tokens` is above 1. The Step-3.5,
    Step-5 and Inkling MTP drafts, which vLLM exempts, are not reported.

    ## Why
    vLLM logs "Enabling num_speculative_tokens > 1 will run multiple times
    of forward on same MTP layer,which may result in lower acceptance rate"
    and continues: each extra token reuses the checkpoint's MTP layer,
    which was trained to predict one token ahead.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Keep `num_speculative_tokens` at the checkpoint's number of MTP layers
    (1 for DeepSeek-V3), or accept the lower acceptance rate after
    measuring it.

    ## Evidence
    The speculative config as written and the draft's config.json (the
    served model's for `mtp` without `model`).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, the MTP detection of the draft-model branch.
    """

    code = "SL431"
    name = "mtp-repeated-layer"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or p.method != "mtp" or p.draft is None:
            return
        tokens = p.args.tokens
        if not isinstance(tokens, int) or tokens is True or tokens <= 1:
            return
        mtype = p.draft.get("model_type")
        if mtype not in ("deepseek_v3", "deepseek_v32", "glm_moe_dsa", "deepseek_mtp") and not (
            isinstance(mtype, str) and mtype.endswith("_mtp") and mtype not in ("step3p5_mtp", "step5_mtp", "inkling_mtp")
        ):
            return
        message = ("Enabling num_speculative_tokens > 1 will run multiple times of forward on same MTP "
                   "layer,which may result in lower acceptance rate")
        layers = p.n_predict if p.n_predict_known and isinstance(p.n_predict, int) else None
        note = f"the draft has {layers} MTP layer{'s' if layers != 1 else ''}" if layers else ""
        yield key_finding(ctx, p.args, "num_speculative_tokens", message, _CHECK.key,
                      message=f"num_speculative_tokens {tokens} with an MTP draft runs the same MTP layer several "
                              "times per step, which may lower the acceptance rate", note=note)
