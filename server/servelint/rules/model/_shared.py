"""What the ``ModelConfig`` rules share: the decode-context-parallel GQA
facts of ``ModelConfig.verify_with_parallel_config``, the registry facts
the runner checks read."""

from __future__ import annotations

from ...derive.base import FrozenValue
from ...derive.flags import int_of, known_flag, value_of, written
from ...derive.model import arch_facts, model_config, num_attention_heads, total_num_kv_heads, uses_mla
from ..base import Context, model_note, related


class DcpGqa(FrozenValue):
    """A launch with decode-context parallelism on a GQA/MQA model: the sizes
    as vLLM compares them, the ``-dcp`` flag and the related locations."""

    __slots__ = _fields = ("tp", "dcp", "heads", "kv_heads", "anchor", "related")

    def __init__(self, tp: int, dcp: int, heads: int, kv_heads: int, anchor, related_to: list) -> None:
        setattr_ = object.__setattr__
        for name, value in zip(self._fields, (tp, dcp, heads, kv_heads, anchor, related_to)):
            setattr_(self, name, value)


def dcp_gqa(ctx: Context) -> DcpGqa | None:
    """The decode-context-parallel block of ``verify_with_parallel_config``
    (vllm/config/model.py): it runs when ``decode_context_parallel_size > 1``
    and the model does not use MLA.  None unless the launch writes a known
    ``-dcp`` above 1, the tensor-parallel size is known and positive, the
    model is known not to use MLA and its head counts are known."""
    inv = ctx.invocation
    anchor = known_flag(inv, "decode_context_parallel_size")
    if anchor is None:
        return None
    tp, dcp = int_of(inv, "tensor_parallel_size"), int_of(inv, "decode_context_parallel_size")
    if not (tp.known and dcp.known) or dcp.value <= 1 or tp.value < 1:
        return None
    if uses_mla(ctx) is not False:
        return None
    heads, kv = num_attention_heads(ctx), total_num_kv_heads(ctx)
    if heads is None or kv is None:
        return None
    rel = related(ctx, value_of(inv, "tensor_parallel_size").flags, "tensor-parallel size set by {flag}")
    note = model_note(ctx)
    if note is not None:
        rel.append(note)
    return DcpGqa(tp.value, dcp.value, heads, kv, anchor, rel)


def registry_arch(ctx: Context):
    """The release's registry facts of the model's one architecture, as
    the runner checks of ``ModelConfig.__post_init__`` see them; None when
    the config.json is not known (or ``--hf-overrides`` may change it),
    lists several architectures, or ``--model-impl`` may pick another
    class (the Transformers or Terratorch backends)."""
    if written(ctx.invocation, "model_impl"):
        return None
    cfg = model_config(ctx)
    archs = cfg.get("architectures") if cfg is not None else None
    if not isinstance(archs, list) or len(archs) != 1:
        return None
    return arch_facts(ctx)
