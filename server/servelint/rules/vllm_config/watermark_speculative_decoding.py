"""SL607: watermarking with a speculative config it does not support."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, written
from ...derive.speculative import speculative_args
from ...values import effective
from ..base import Context, Finding, related, vllm_message
from ._shared import VllmConfigRule, checks, report

# Methods SpeculativeConfig keeps as written that are never model-based
# autoregressive drafters (the ones watermarking refuses whatever the release).
_OTHER_METHODS = frozenset({"ngram", "ngram_gpu", "medusa", "mlp_speculator", "draft_model", "suffix", "custom_class",
                            "extract_hidden_states"})


class WatermarkSpeculativeDecoding(VllmConfigRule):
    """`--watermark-config` with a speculative config watermarking does not support.

    ## What it does
    Reports `--watermark-config` together with `--speculative-config` when:

    * `draft_sample_method` is not `probabilistic` (the default is `greedy`);
    * `rejection_sample_method` is not `standard`;
    * `parallel_drafting` is on for a method other than `dspark` (0.33.0:
      `dflash`, `dspark`);
    * the method is not `dspark`, `eagle`, `eagle3` or `mtp` (0.33.0 also
      `dflash`);
    * the watermark `algorithm` is not `dual_key_gumbel` (the default is
      `gumbel`) and `allow_target_only_watermarking` is not set.

    ## Why
    Watermarking biases sampling with a keyed pseudorandom function; draft
    tokens must be sampled and verified the same way to keep the watermark.
    vLLM stops while building its config ("Speculative decoding with
    watermarking requires draft_sample_method='probabilistic'.", ...).

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --watermark-config '{"key": 1}' \\
        --speculative-config '{"method": "eagle", "model": "./eagle-llama", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Set `"draft_sample_method": "probabilistic"` in the speculative config
    and `"algorithm": "dual_key_gumbel"` (or
    `"allow_target_only_watermarking": true`) in the watermark config, or
    drop one of the two.

    ## Evidence
    Both configs as written, with the release's defaults for keys not
    written. A method vLLM derives from the draft model (no `method` key)
    is unknown: the method checks stay silent.

    ## vLLM source
    `VllmConfig._check_supports_watermarking` (vllm/config/vllm.py).
    """

    code = "SL607"
    name = "watermark-speculative-decoding"
    vllm_checks = checks("watermark_draft", "watermark_rejection", "watermark_parallel", "watermark_method",
                         "watermark_algorithm")
    requires = ("--watermark-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not written(inv, "watermark_config") or effective(inv, "watermark_config") is None:
            return
        wm = json_of(inv, "watermark_config")
        if not wm.known or not wm.flags:
            return
        s = speculative_args(ctx)
        if s is None:
            return
        here = related(ctx, wm.flags, "watermarking configured here")
        out = []
        draft = s.get("draft_sample_method") or "greedy"
        if isinstance(draft, str) and draft != "probabilistic":
            out.append(report(ctx, s.anchor, "watermark_draft", related_to=here,
                              note="" if s.get("draft_sample_method") else "draft_sample_method defaults to 'greedy'"))
        rejection = s.get("rejection_sample_method") or "standard"
        if isinstance(rejection, str) and rejection != "standard":
            out.append(report(ctx, s.anchor, "watermark_rejection", related_to=here))
        template = vllm_message(ctx, "vllm_config.watermark_method") or ""
        allowed = ("dspark", "eagle", "eagle3", "mtp") + (("dflash",) if "dflash" in template else ())
        method = s.method
        parallel_ok = ("dflash", "dspark") if "dflash" in template else ("dspark",)
        if s.get("parallel_drafting") is True and isinstance(method, str) and (
                method in _OTHER_METHODS or method in allowed) and method not in parallel_ok:
            out.append(report(ctx, s.anchor, "watermark_parallel", related_to=here))
        if isinstance(method, str) and (method in _OTHER_METHODS or method == "dflash" and method not in allowed):
            out.append(report(ctx, s.anchor, "watermark_method", related_to=here, note=f"method '{method}'"))
        algorithm = wm.value.get("algorithm", "gumbel")
        target_only = wm.value.get("allow_target_only_watermarking", False)
        if isinstance(algorithm, str) and algorithm in ("gumbel",) and target_only is False:
            out.append(report(ctx, wm.flags[-1], "watermark_algorithm", algorithm,
                              related_to=related(ctx, s.flags, "speculative decoding configured here")))
        yield from (f for f in out if f is not None)
