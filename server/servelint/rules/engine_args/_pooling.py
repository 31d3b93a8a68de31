"""What the pooling-model warnings of the engine arguments share: whether
vLLM runs the launch's model as a bidirectional (``encoder_only``) pooling
model, for which neither chunked prefill nor prefix caching is supported.

``ModelConfig.attn_type`` (vllm/config/model.py, 0.25.0 :1780, 0.33.0
:2174) is ``encoder_only`` for a pooling model (``pooler_config`` set, that
is ``runner_type == "pooling"``) whose architecture's
``default_seq_pooling_type`` is ``CLS``; ``is_chunked_prefill_supported``
and ``is_prefix_caching_supported`` (0.25.0 :1799/:1845, 0.33.0
:2193/:2239) return False for it in every release 0.25.0..0.33.0.  Other
pooling models (causal ones) depend on the pooler config vLLM resolves
(``--pooler-config``, the checkpoint's sentence-transformers files), which
servelint does not read: left unknown.
"""

from __future__ import annotations

from ...derive.flags import defaults_unknown, value_of, written
from ..base import Context


def bidirectional_pooling(ctx: Context) -> str | None:
    """A note naming the architecture when vLLM surely runs the model as a
    bidirectional pooling model; None when it does not or may not.

    Only a native pooling architecture (pooling and not text generation in
    the release's model registry) with ``--runner`` auto or pooling and no
    ``--convert``: vLLM then picks the pooling runner, no adapter changes
    the architecture's model info.
    """
    inv = ctx.invocation
    runner = value_of(inv, "runner")
    if runner.value not in ("auto", "pooling") or (runner.how == "default" and defaults_unknown(inv)):
        return None
    if runner.how not in ("flag", "default"):
        return None
    if written(inv, "convert"):
        return None
    arch = ctx.arch
    model = ctx.model
    if arch is None or model is None or getattr(model, "inferred", False) or getattr(arch, "error", None):
        return None
    if not arch.is_pooling_model or arch.is_text_generation_model:
        return None
    if getattr(arch, "default_seq_pooling_type", None) != "CLS":
        return None
    return f"{ctx.architecture} is a pooling model with CLS pooling, which vLLM runs with bidirectional attention"
