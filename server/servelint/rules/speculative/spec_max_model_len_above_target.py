"""SL416: the speculative config's `max_model_len` above the served model's."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import derived_max_len, max_model_len
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import int_key, key_finding, speculative_written

_CHECK = VllmCheck(
    "speculative.max_model_len_target", "speculative_max_model_len={} cannot be larger than target_max_model_len={}",
    "vllm/config/speculative.py",
)
# The draft's ModelConfig refuses a length above its own derived one first,
# with ``_get_and_verify_max_len``'s message (vllm/config/model.py), built
# from three literals.
_DRAFT = VllmCheck("speculative.draft_max_len", "than the derived max_model_len", "vllm/config/model.py")
_DRAFT_ALLOW = VllmCheck(
    "speculative.draft_max_len_allow", "To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.",
    "vllm/config/model.py",
)
_DRAFT_CAUTION = VllmCheck(
    "speculative.draft_max_len_caution", "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution.",
    "vllm/config/model.py",
)
_ENV = "VLLM_ALLOW_LONG_MAX_MODEL_LEN"


def _fill(template: str, *values) -> str:
    parts = template.split("{}")
    out = [parts[0]]
    for value, part in zip(values, parts[1:]):
        out.extend((str(value), part))
    return "".join(out)


class SpecMaxModelLenAboveTarget(Rule):
    """`max_model_len` in the speculative config larger than the served model's, or than the draft's own limit.

    ## What it does
    Reports, for MTP and DSpark drafts taken from the served model itself,
    a speculative `max_model_len` (the draft's maximum length) above the
    length the model's config.json allows (unless
    `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1` is set), or above the served model's
    `max_model_len` (`--max-model-len`, or the derived length).

    ## Why
    The draft's model config refuses a length its checkpoint does not
    support, with the message `--max-model-len` gets ("User-specified
    max_model_len (1000000) is greater than the derived max_model_len
    ..."); and sequences longer than the target's limit never reach the
    draft: "speculative_max_model_len=8192 cannot be larger than
    target_max_model_len=4096".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 4096 \\
        --speculative-config '{"method": "mtp", "num_speculative_tokens": 1, "max_model_len": 8192}'
    ```

    ## Fix
    Lower the speculative `max_model_len` to at most `--max-model-len`, or
    leave it out (the draft then uses the smaller of the two models' limits).

    ## Evidence
    The speculative config, `--max-model-len` and
    `VLLM_ALLOW_LONG_MAX_MODEL_LEN` as written, the served model's
    config.json; silent with `--disable-sliding-window`, which caps the
    target's length but not the draft's. A separate draft model is not
    checked.

    ## vLLM source
    `SpeculativeConfig._maybe_override_draft_max_model_len`, called from
    `__post_init__` after the draft's tensor-parallel size is checked, and
    the draft's `ModelConfig` (`_get_and_verify_max_len`) before it.
    """

    code = "SL416"
    name = "spec-max-model-len-above-target"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _DRAFT, _DRAFT_ALLOW, _DRAFT_CAUTION)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    partners = ("--max-model-len",)
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or not p.target_draft or p.method not in ("mtp", "dspark"):
            return
        spec_len = int_key(p.args, "max_model_len")
        if spec_len is None or spec_len < 1:
            return
        inv = ctx.invocation
        if inv.last("disable_sliding_window") is not None:
            return  # it caps the target's length, not the draft's
        derived = derived_max_len(ctx)
        if derived is None:
            return
        mml = derived.model_max_length
        if spec_len > derived.value and (mml is None or (isinstance(mml, (int, float)) and spec_len > mml)):
            var = inv.env.get(_ENV)
            if var is not None and var.value is None:
                return  # set to what only the run shows
            if var is None or var.value.strip().lower() not in ("1", "true"):
                yield from self._draft_limit(ctx, p, spec_len, derived)
                return
            # Allowed: the draft takes the speculative length as it is.
        elif mml is not None and not isinstance(mml, (int, float)):
            return
        target = max_model_len(ctx)
        if target is None or spec_len <= target.value:
            return
        message = f"speculative_max_model_len={spec_len} cannot be larger than target_max_model_len={target.value}"
        how = "set by --max-model-len" if target.how == "flag" else "derived from its config.json"
        yield key_finding(ctx, p.args, "max_model_len", message, _CHECK.key,
                      note=f"the served model's max_model_len is {target.value}, {how}")

    def _draft_limit(self, ctx: Context, p, spec_len: int, derived) -> Iterable[Finding]:
        version = ctx.version
        sites = [validators.site(c.key, version) for c in (_DRAFT, _DRAFT_ALLOW, _DRAFT_CAUTION)]
        if any(site is None for site in sites):
            return
        head = _fill(sites[0].template, spec_len, derived.key, derived.value, derived.model_max_length)
        message = _fill(sites[1].template, head, sites[2].template)
        shown = (f"the speculative max_model_len ({spec_len}) is above the length the draft's config.json allows "
                 f"({derived.key}={derived.value}); the draft is the served model, so the same limit holds")
        yield key_finding(ctx, p.args, "max_model_len", message, _DRAFT.key, message=shown)
