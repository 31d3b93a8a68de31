"""The feature lists behind the Model Runner choice (vllm/config/vllm.py
``_get_v2_model_runner_unsupported_features`` and
``_get_v1_model_runner_unsupported_features``, 0.29.0-0.33.0), and the runner
they make vLLM pick.

Each entry of a list is decided from the flags, the environment and the
model's config.json, or left unknown; a list with an unknown entry is not
``complete`` (vLLM's message lists every entry, so the message is then
unknown too).  ``derive.runner.use_v2_model_runner`` answers the runner
question without the lists (unknown when a flag of them is written); the
functions here are for rules that need the lists themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived, FrozenValue, at_least, is_int
from .flags import file_value, json_of, written
from .runner import _forced_v2_by_config, has_triton, v2_env

if TYPE_CHECKING:  # pragma: no cover
    from .view import View


class Features(FrozenValue):
    """An unsupported-feature list: ``items`` (vLLM's wording, in its order)
    that hold, the ``flags`` that turn each on (one tuple per item), and
    whether every entry of the release's list was decided (``complete``)."""

    __slots__ = _fields = ("items", "flags", "complete")

    def __init__(self, items: tuple, flags: tuple, complete: bool) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "items", items)
        setattr_(self, "flags", flags)
        setattr_(self, "complete", complete)


class _Acc:
    def __init__(self) -> None:
        self.items: list[str] = []
        self.flags: list[tuple] = []
        self.complete = True

    def add(self, label: str, holds: bool | None, flags=()) -> None:
        if holds is None:
            self.complete = False
        elif holds:
            self.items.append(label)
            self.flags.append(tuple(flags))

    def done(self) -> Features:
        return Features(tuple(self.items), tuple(self.flags), self.complete)


def _int(ctx: "View", dest: str) -> Derived:
    inv = ctx.invocation
    if dest not in inv.knowledge.by_dest:
        return Derived(1, "default")
    v = file_value(inv, dest)
    return v if is_int(v.value) else UNKNOWN


def _above_one(ctx: "View", dest: str) -> tuple[bool | None, tuple]:
    v = _int(ctx, dest)
    if not v.known:
        return None, ()
    return v.value > 1, tuple(v.flags)


def _plain(ctx: "View", dest: str) -> Derived:
    """A plain option's value as vLLM receives it, its default included
    (also a None default); UNKNOWN when the file does not show it.  A
    release without the option gives its absence (None, "default")."""
    inv = ctx.invocation
    if dest not in inv.knowledge.by_dest:
        return Derived(None, "default")
    v = file_value(inv, dest)
    return UNKNOWN if v.how == "unknown" else v


def _switch(ctx: "View", dest: str) -> tuple[bool | None, tuple]:
    v = _plain(ctx, dest)
    if v.how == "unknown":
        return None, ()
    if not v.value:
        return False, ()
    return True, tuple(v.flags)


class _Spec:
    """The speculative config as the lists read it: ``on`` (False: none;
    None: not known), its final ``method`` (None: not known), its
    ``args`` (the merged JSON keys) and its flags."""

    def __init__(self, on: bool | None, method: str | None = None, args=None, flags: tuple = ()) -> None:
        self.on, self.method, self.args, self.flags = on, method, args, flags

    def key(self, name: str, default=None):
        if self.args is None:
            return default
        value = self.args.get(name)
        return default if value is None else value


def _spec(ctx: "View") -> _Spec:
    from .speculative import SPECULATIVE_DESTS, proposer

    inv = ctx.invocation
    if not any(written(inv, d) for d in SPECULATIVE_DESTS if d in inv.knowledge.by_dest):
        return _Spec(False)
    p = proposer(ctx)
    if p is None or p.fails is not None or p.branch is None:
        return _Spec(None)
    if p.branch == "none":
        return _Spec(False)
    flags = tuple(p.args.flags[-1:]) if getattr(p.args, "flags", None) else ()
    return _Spec(True, p.method if isinstance(p.method, str) else None, p.args, flags)


class DFlashDraft(FrozenValue):
    """A ``dflash`` draft as ``VllmConfig`` reads it: the draft config's
    ``architectures`` after ``EAGLEConfig`` renamed them, its
    ``layer_types``, and the speculative config's flags."""

    __slots__ = _fields = ("archs", "layer_types", "flags")

    def __init__(self, archs: tuple, layer_types: tuple, flags: tuple) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "archs", archs)
        setattr_(self, "layer_types", layer_types)
        setattr_(self, "flags", flags)

    @property
    def mixed_layers(self) -> bool:
        """``_dflash_needs_multi_kv_group``: some, not all, layers sliding."""
        sliding = sum(t == "sliding_attention" for t in self.layer_types)
        return 0 < sliding < len(self.layer_types)

    def candidate(self, version: str) -> bool:
        """``_is_dflash_candidate_draft`` (0.31.0+) / ``_is_dflash2_draft`` (0.29.0/0.30.0)."""
        if not at_least(version, "0.31.0"):
            names = {"DFlash2DraftModel"}
        elif not at_least(version, "0.33.0"):
            names = {"DFlash2DraftModel", "LiLiCorrDraftModel"}
        else:
            names = {"DFlash2DraftModel", "DFlash2BeamDraftModel", "LiLiCorrDraftModel"}
        return bool(names.intersection(self.archs))


_XPRESS_ARCHITECTURES = frozenset({"Qwen3XPressModel", "DFlashQwen3XPressModel"})


def dflash_draft(ctx: "View") -> DFlashDraft | None:
    """The launch's ``dflash`` draft (see ``DFlashDraft``), or None: another
    method, or a draft whose config servelint does not have or does not
    follow (a speculators-format checkpoint, nested text configs)."""
    from .speculative import proposer

    p = proposer(ctx)
    if p is None or p.method != "dflash" or not isinstance(p.draft, dict) and not hasattr(p.draft, "get"):
        return None
    draft = p.draft
    if draft.get("speculators_config") is not None or isinstance(draft.get("text_config"), dict):
        return None
    archs = draft.get("architectures")
    if not isinstance(archs, (list, tuple)) or not all(isinstance(a, str) for a in archs):
        return None
    keep_lilicorr = at_least(ctx.version, "0.31.0")
    renamed = tuple(a if a.startswith("DFlash") or a.endswith("DFlash")
                    or keep_lilicorr and a == "LiLiCorrDraftModel" else f"DFlash{a}" for a in archs)
    layers = draft.get("layer_types") or []
    if not isinstance(layers, (list, tuple)):
        return None
    flags = tuple(p.args.flags[-1:]) if getattr(p.args, "flags", None) else ()
    return DFlashDraft(renamed, tuple(layers), flags)


def _compilation_mode_stock(ctx: "View") -> tuple[bool | None, tuple]:
    cc = json_of(ctx.invocation, "compilation_config")
    if not cc.known:
        return None, ()
    mode = cc.value.get("mode")
    if mode is None:
        return False, ()
    if mode == 1 or str(mode).strip().upper() in ("1", "STOCK_TORCH_COMPILE"):
        return True, tuple(cc.flags)
    if isinstance(mode, bool) or not (is_int(mode) or isinstance(mode, str)):
        return None, ()
    return False, ()


def _model_json(ctx: "View") -> dict | None:
    from .model import model_config

    cfg = model_config(ctx)
    return cfg if cfg is not None and hasattr(cfg, "get") else None


# The speculative methods each release's V2 list names as unsupported
# ("speculative method '<m>'"); 0.28.0/0.29.0 instead allow a few methods
# and name n-gram drafting apart.
_V2_BLOCKED_METHODS = (
    ("0.33.0", ("suffix", "custom_class")),
    ("0.32.0", ("suffix", "medusa", "mlp_speculator", "custom_class")),
    ("0.31.0", ("ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator", "custom_class")),
    ("0.30.0", ("ngram", "ngram_gpu", "draft_model", "suffix", "medusa", "mlp_speculator", "custom_class")),
)
_V2_ALLOWED_0_29 = ("eagle", "eagle3", "mtp", "dflash", "dspark", "extract_hidden_states")


def _add_pp_external_launcher(ctx: "View", acc: "_Acc") -> Derived:
    """Both runners' lists: pipeline parallelism under the external launcher.
    The pipeline-parallel size, for the entries that read it too."""
    pp = _int(ctx, "pipeline_parallel_size")
    backend = _plain(ctx, "distributed_executor_backend")
    if not pp.known or backend.how == "unknown":
        acc.add("pipeline parallelism with external_launcher", None)
    else:
        acc.add("pipeline parallelism with external_launcher",
                backend.value == "external_launcher" and pp.value > 1, tuple(backend.flags) + tuple(pp.flags))
    return pp


def v2_unsupported_features(ctx: "View") -> Features | None:
    """``_get_v2_model_runner_unsupported_features`` (0.29.0-0.33.0; None in
    other releases).

    Every release: pipeline parallelism with ``external_launcher``, the
    speculative method, parallel drafting outside DFlash/DSpark; 0.29.0:
    EAGLE3 with pipeline parallelism, ``--enable-dbo``, KV sharing fast
    prefill; 0.29.0-0.31.0: stock torch.compile, sequence parallelism
    (``enable_sp`` with tensor parallelism: its default depends on the
    model's size, so tensor parallelism above 1 is unknown), elastic EP;
    0.29.0-0.30.0: custom logits processors (the flag; logits-processor
    plugins installed in the image are assumed absent); 0.30.0-0.31.0:
    Mamba cache mode 'all'; 0.30.0+: ubatching (``--enable-dbo`` or
    ``--ubatch-size`` above 1): "dual batch overlap" when
    ``VLLM_USE_V2_MODEL_RUNNER`` is unset, else the DBO list
    (``_get_dbo_unsupported_features``, ``_dbo_unsupported``); 0.32.0+:
    heterogeneous-vocabulary drafts.  ``--enable-dbo`` is always unknown:
    the CPU platform turns it off (vllm/platforms/cpu.py) and the CUDA
    platform keeps it, so which list vLLM reads depends on where it runs.
    """
    version = ctx.version
    if not at_least(version, "0.29.0"):
        return _v2_unsupported_before_0_29(ctx)
    inv = ctx.invocation
    acc = _Acc()
    before_0_32 = not at_least(version, "0.32.0")
    if before_0_32:
        acc.add("stock torch.compile", *_compilation_mode_stock(ctx))
        tp = _int(ctx, "tensor_parallel_size")
        acc.add("sequence parallelism", None if not tp.known or tp.value > 1 else False)
    pp = _add_pp_external_launcher(ctx, acc)
    spec = _spec(ctx)
    if spec.on is None:
        acc.add("speculative decoding", None)
    elif spec.on:
        method = spec.method
        if method is None:
            acc.add("speculative method", None)
        elif not at_least(version, "0.30.0"):
            if method in ("ngram", "ngram_gpu"):
                acc.add("ngram/ngram_gpu speculative decoding", True, spec.flags)
            else:
                acc.add(f"speculative method '{method}'", method not in _V2_ALLOWED_0_29, spec.flags)
        else:
            blocked = next(b for floor, b in _V2_BLOCKED_METHODS if at_least(version, floor))
            acc.add(f"speculative method '{method}'", method in blocked, spec.flags)
        drafting = spec.key("parallel_drafting", False)
        if method is None or not isinstance(drafting, bool):
            acc.add("parallel drafting for EAGLE speculative decoding", None)
        else:
            acc.add("parallel drafting for EAGLE speculative decoding",
                    drafting and method not in ("dflash", "dspark"), spec.flags)
        if not at_least(version, "0.30.0"):
            acc.add("EAGLE3 with pipeline parallelism",
                    None if method is None or not pp.known else method == "eagle3" and pp.value > 1,
                    spec.flags + tuple(pp.flags))
        if at_least(version, "0.32.0"):
            hetero = spec.key("use_heterogeneous_vocab", False)
            acc.add("heterogeneous-vocabulary draft models", hetero if isinstance(hetero, bool) else None,
                    spec.flags)
    dbo, _ = _switch(ctx, "enable_dbo")
    if dbo is not False:
        acc.add("dual batch overlap", None)
    elif at_least(version, "0.30.0"):
        ub = _int(ctx, "ubatch_size")
        if not ub.known:
            acc.add("dual batch overlap", None)
        elif ub.value > 1:
            env = v2_env(inv)
            if env.how == "default":
                acc.add("dual batch overlap", True, tuple(ub.flags))
            else:
                _dbo_unsupported(ctx, acc, spec)
    if before_0_32:
        acc.add("elastic expert parallelism", *_switch(ctx, "enable_elastic_ep"))
    if not at_least(version, "0.31.0"):
        lp = _plain(ctx, "logits_processors")
        acc.add("custom logits processors", None if lp.how == "unknown" else bool(lp.value), tuple(lp.flags))
    if not at_least(version, "0.30.0"):
        acc.add("KV sharing fast prefill", *_switch(ctx, "kv_sharing_fast_prefill"))
    if at_least(version, "0.30.0") and before_0_32:
        from .cache import mamba_cache_mode

        mode = mamba_cache_mode(ctx)
        acc.add("mamba cache mode 'all'", None if not mode.known else mode.value == "all", tuple(mode.flags))
    return acc.done()


def _v2_unsupported_before_0_29(ctx: "View") -> Features:
    """The V2 list of 0.25.0-0.28.0: prefill context parallelism (0.26.0+:
    without MLA), stock torch.compile, sequence parallelism (tensor
    parallelism above 1: unknown), pipeline parallelism with
    external_launcher, n-gram drafting, another method than EAGLE/EAGLE3/
    MTP/DFlash/DSpark, parallel drafting, EAGLE3 with pipeline parallelism,
    (0.28.0) adaptive verification with LoRA, without CUDA graphs or with
    pipeline parallelism (unknown when it is on: the final cudagraph mode),
    DBO (unknown, see ``v2_unsupported_features``), elastic EP, (up to
    0.27.1) routed experts capture, custom logits processors, prompt
    embeds, (0.25.0) raw/processed logprobs modes (unknown: the runner
    type), KV sharing fast prefill, (up to 0.27.1) an EC transfer config."""
    from .model import uses_mla

    version = ctx.version
    inv = ctx.invocation
    acc = _Acc()
    pcp = _int(ctx, "prefill_context_parallel_size")
    if not pcp.known:
        acc.add("prefill context parallelism", None)
    elif pcp.value > 1 and at_least(version, "0.26.0"):
        mla = uses_mla(ctx)
        acc.add("prefill context parallelism", None if mla is None else not mla, tuple(pcp.flags))
    else:
        acc.add("prefill context parallelism", pcp.value > 1, tuple(pcp.flags))
    acc.add("stock torch.compile", *_compilation_mode_stock(ctx))
    tp = _int(ctx, "tensor_parallel_size")
    acc.add("sequence parallelism", None if not tp.known or tp.value > 1 else False)
    pp = _add_pp_external_launcher(ctx, acc)
    spec = _spec(ctx)
    if spec.on is None or spec.on and spec.method is None:
        acc.add("speculative decoding", None)
    elif spec.on:
        method = spec.method
        if method in ("ngram", "ngram_gpu"):
            acc.add("ngram/ngram_gpu speculative decoding", True, spec.flags)
        else:
            acc.add(f"speculative method '{method}'",
                    method not in ("eagle", "eagle3", "mtp", "dflash", "dspark"), spec.flags)
        drafting = spec.key("parallel_drafting", False)
        acc.add("parallel drafting for EAGLE speculative decoding",
                None if not isinstance(drafting, bool) else drafting and method not in ("dflash", "dspark"),
                spec.flags)
        acc.add("EAGLE3 with pipeline parallelism",
                None if not pp.known else method == "eagle3" and pp.value > 1, spec.flags + tuple(pp.flags))
        if at_least(version, "0.28.0"):
            adaptive = spec.key("enable_adaptive_verification", False)
            acc.add("adaptive verification", None if adaptive is not False else False)
    dbo, _ = _switch(ctx, "enable_dbo")
    acc.add("dual batch overlap", None if dbo is not False else False)
    acc.add("elastic expert parallelism", *_switch(ctx, "enable_elastic_ep"))
    if not at_least(version, "0.28.0"):
        acc.add("routed experts capture", *_switch(ctx, "enable_return_routed_experts"))
    lp = _plain(ctx, "logits_processors")
    acc.add("custom logits processors", None if lp.how == "unknown" else bool(lp.value), tuple(lp.flags))
    acc.add("prompt embeds", *_switch(ctx, "enable_prompt_embeds"))
    if not at_least(version, "0.26.0"):
        mode = _plain(ctx, "logprobs_mode")
        acc.add("logprobs mode", None if mode.how == "unknown" or mode.value in ("raw_logits", "processed_logits")
                else False)
    acc.add("KV sharing fast prefill", *_switch(ctx, "kv_sharing_fast_prefill"))
    if not at_least(version, "0.28.0") and "ec_transfer_config" in inv.knowledge.by_dest:
        ec = json_of(inv, "ec_transfer_config")
        acc.add("EC transfer", None if not ec.known else bool(written(inv, "ec_transfer_config") and ec.value),
                tuple(ec.flags))
    return acc.done()


def _dbo_unsupported(ctx: "View", acc: _Acc, spec: _Spec) -> None:
    """``_get_dbo_unsupported_features`` with ``VLLM_USE_V2_MODEL_RUNNER``
    set (0.30.0+): LoRA, speculative decoding, pipeline parallelism,
    context parallelism, a multimodal or encoder-decoder model, a hybrid
    model, PIECEWISE CUDA graphs (unknown unless ``--enforce-eager``: the
    final mode depends on overrides), a multimodal encoder-only instance."""
    from .model import arch_facts

    lora, lora_flags = _switch(ctx, "enable_lora")
    acc.add("dual batch overlap with LoRA", lora, lora_flags)
    acc.add("dual batch overlap with speculative decoding", spec.on, spec.flags)
    acc.add("dual batch overlap with pipeline parallelism", *_above_one(ctx, "pipeline_parallel_size"))
    dcp, dcp_flags = _above_one(ctx, "decode_context_parallel_size")
    pcp, pcp_flags = _above_one(ctx, "prefill_context_parallel_size")
    if dcp or pcp:
        acc.add("dual batch overlap with context parallelism", True, dcp_flags + pcp_flags)
    else:
        acc.add("dual batch overlap with context parallelism", None if dcp is None or pcp is None else False)
    arch = arch_facts(ctx)
    model = _model_json(ctx)
    if arch is None or model is None:
        acc.add("dual batch overlap with multimodal models", None)
        acc.add("dual batch overlap with hybrid models", None)
    else:
        mm = arch.supports_multimodal
        enc_dec = getattr(arch, "attn_type", None) == "encoder_decoder" or model.get("is_encoder_decoder") is True
        acc.add("dual batch overlap with multimodal models",
                True if enc_dec else None if mm is not False else False)
        hybrid = arch.is_hybrid
        if hybrid is True:
            # ModelConfig.is_hybrid: not when every layer_types entry is attention.
            layers = model.get("layer_types")
            if isinstance(layers, (list, tuple)):
                hybrid = not all(t in ("attention", "full_attention") for t in layers)
            elif layers is not None:
                hybrid = None
        acc.add("dual batch overlap with hybrid models", hybrid if isinstance(hybrid, bool) else None)
    eager, _ = _switch(ctx, "enforce_eager")
    acc.add("dual batch overlap with PIECEWISE CUDA graphs", False if eager else None)
    if arch is None or arch.supports_multimodal is not False:
        acc.add("dual batch overlap with encoder only models", None)


_STEP5 = ("Step5ForCausalLM", "Step5ForConditionalGeneration")


def _parse_mtp(ctx: "View") -> bool | None:
    """Whether an ``mtp`` draft becomes ``ParseAuxMTPModel`` (0.33.0
    ``SpeculativeConfig.hf_config_override``: a draft whose first
    architecture is ``RadioMBartPrefixForCausalLM`` with a causal vision
    prefix); None when the draft's config is not at hand."""
    from .speculative import proposer

    p = proposer(ctx)
    draft = p.draft if p is not None else None
    if draft is None or not hasattr(draft, "get"):
        return None
    archs = draft.get("architectures")
    if not isinstance(archs, (list, tuple)) or not archs:
        return None
    if archs[0] != "RadioMBartPrefixForCausalLM":
        return False
    return None


def v1_unsupported_features(ctx: "View") -> Features | None:
    """``_get_v1_model_runner_unsupported_features`` (0.29.0-0.33.0; None in
    other releases).

    Every release: prefill context parallelism, DSpark, adaptive draft
    verification, mixed sliding/full DFlash drafts and DFlash candidate-head
    (0.29.0-0.30.0: DFlash2) drafts (from the draft's config.json,
    ``dflash_draft``; unknown when servelint does not have it),
    diffusion models (``canvas_length`` in config.json), batch-sharded
    sampling; 0.31.0+: pipeline parallelism with async scheduling (False
    unless ``--async-scheduling`` is written: unset, vLLM turns it off for
    V1 with pipeline parallelism; written, unknown: the CPU platform's hook
    turns it off before the check, the CUDA platform keeps it); 0.33.0: XPress drafts (the draft's architecture),
    ``draft_lm_head_quantization``, the Parse 3.5 MTP draft (method
    ``mtp``: from the draft's architecture), Step5 models.
    """
    version = ctx.version
    if not at_least(version, "0.29.0"):
        return None
    inv = ctx.invocation
    acc = _Acc()
    latest = at_least(version, "0.33.0")
    acc.add("prefill context parallel", *_above_one(ctx, "prefill_context_parallel_size"))
    if at_least(version, "0.31.0"):
        pp = _int(ctx, "pipeline_parallel_size")
        async_on = _plain(ctx, "async_scheduling")
        if not pp.known or async_on.how == "unknown":
            acc.add("pipeline parallelism with async scheduling", None)
        elif pp.value > 1 and async_on.value is True:
            # Explicit: the CUDA platform keeps it, the CPU platform's hook
            # (before this check) turns async scheduling off.
            acc.add("pipeline parallelism with async scheduling", None)
    spec = _spec(ctx)
    if spec.on is None or spec.on and spec.method is None:
        acc.add("speculative decoding", None)
    elif spec.on:
        method = spec.method
        acc.add("dspark speculative decoding", method == "dspark", spec.flags)
        dflash = dflash_draft(ctx) if method == "dflash" else None
        known_draft = method != "dflash" or dflash is not None
        if latest and method != "dspark":
            acc.add("xpress speculative decoding",
                    None if not known_draft else dflash is not None and bool(_XPRESS_ARCHITECTURES & set(dflash.archs)),
                    spec.flags)
        adaptive = spec.key("enable_adaptive_verification", False)
        acc.add("adaptive draft verification", adaptive if isinstance(adaptive, bool) else None, spec.flags)
        if latest:
            acc.add("draft lm_head quantization", spec.key("draft_lm_head_quantization") is not None, spec.flags)
            acc.add("Parse 3.5 MTP", _parse_mtp(ctx) if method == "mtp" else False, spec.flags)
        acc.add("mixed sliding/full dflash drafts",
                None if not known_draft else dflash is not None and dflash.mixed_layers, spec.flags)
        label = "DFlash candidate-head drafts" if at_least(version, "0.31.0") else "dflash2 drafts"
        acc.add(label, None if not known_draft else dflash is not None and dflash.candidate(version), spec.flags)
    model = _model_json(ctx)
    acc.add("diffusion models", None if model is None else model.get("canvas_length") is not None)
    acc.add("batch-sharded sampling", *_switch(ctx, "enable_batch_sharded_sampling"))
    if latest:
        archs = model.get("architectures") if model is not None else None
        if not isinstance(archs, (list, tuple)):
            acc.add("Step5", None)
        else:
            acc.add("Step5", bool(archs) and archs[0] in _STEP5)
    return acc.done()


def _hisparse_possible(ctx: "View") -> bool:
    """Whether a HiSparse config may exist (it forces Model Runner V2 first):
    in ``--attention-config`` or made for a HiSparseConnector."""
    inv = ctx.invocation
    for dest in ("attention_config", "kv_transfer_config"):
        if dest not in inv.knowledge.by_dest or not written(inv, dest):
            continue
        cfg = json_of(inv, dest)
        if not cfg.known or "hisparse" in repr(cfg.value).lower():
            return True
    return False


def v2_forced(ctx: "View") -> Derived:
    """Model Runner V2 chosen without the fallback: a watermark config
    (0.30.0+) or ``VLLM_USE_V2_MODEL_RUNNER=1``; before 0.29.0, with the
    variable unset, also a feature only V2 has (0.25.0 :550-560, 0.27.0,
    0.28.0 :615-650): prefill context parallelism (0.27.0+), a DSpark
    draft, a DFlash draft with mixed sliding/full layers (0.26.0+) or
    DFlash2 (0.28.0), a diffusion model.  True, False (the runner falls
    back or is V1), or unknown; HiSparse is unknown here (it has checks of
    its own first)."""
    inv = ctx.invocation
    version = ctx.version
    if _hisparse_possible(ctx):
        return UNKNOWN
    if at_least(version, "0.30.0"):
        forced = _forced_v2_by_config(inv)
        if forced.value is not False:
            return forced
    env = v2_env(inv)
    if env.how == "env":
        return env
    if env.how == "unknown":
        return UNKNOWN
    if not at_least(version, "0.29.0"):
        if at_least(version, "0.27.0"):
            pcp = _int(ctx, "prefill_context_parallel_size")
            if not pcp.known:
                return UNKNOWN
            if pcp.value > 1:
                return Derived(True, "flag", "prefill context parallelism makes vLLM pick Model Runner V2",
                               tuple(pcp.flags))
        spec = _spec(ctx)
        if spec.on is None or spec.on and spec.method is None:
            return UNKNOWN
        if spec.on and spec.method == "dspark":
            return Derived(True, "flag", "DSpark makes vLLM pick Model Runner V2", spec.flags)
        if spec.on and spec.method == "dflash" and at_least(version, "0.26.0"):
            draft = dflash_draft(ctx)
            if draft is None:
                return UNKNOWN
            if draft.mixed_layers or at_least(version, "0.28.0") and draft.candidate(version):
                return Derived(True, "flag", "this DFlash draft makes vLLM pick Model Runner V2", spec.flags)
        model = _model_json(ctx)
        if model is None:
            return UNKNOWN
        if model.get("canvas_length") is not None:
            return Derived(True, "default", "a diffusion model makes vLLM pick Model Runner V2")
    return Derived(False, "default")


def runner_is_v1(ctx: "View") -> Derived:
    """``not VllmConfig.use_v2_model_runner`` with the fallback evaluated
    (0.29.0+): True when vLLM runs Model Runner V1, with why and the flags
    that decide it; False for V2; unknown when servelint cannot tell."""
    inv = ctx.invocation
    version = ctx.version
    if not at_least(version, "0.29.0") or _hisparse_possible(ctx):
        return UNKNOWN
    if at_least(version, "0.30.0"):
        forced = _forced_v2_by_config(inv)
        if forced.value is not False:
            return UNKNOWN if not forced.known else Derived(False, forced.how, forced.why, forced.flags)
    env = v2_env(inv)
    if env.how == "unknown":
        return UNKNOWN
    if env.how == "env":
        return Derived(not env.value, "env", env.why)
    if ctx.target == "rocm" and not at_least(version, "0.32.0"):
        return UNKNOWN  # ROCm's default-V1 architectures
    triton = has_triton(ctx.target)
    if triton is None:
        return UNKNOWN
    if not triton:
        return Derived(True, "platform", f"vLLM {version} picks Model Runner V1 without Triton (target {ctx.target})")
    v2 = v2_unsupported_features(ctx)
    if v2 is None:
        return UNKNOWN
    if v2.items:
        flags = tuple(f for fl in v2.flags for f in fl)
        return Derived(True, "flag", f"Model Runner V2 does not yet support {', '.join(v2.items)}; vLLM falls "
                       "back to Model Runner V1", flags)
    if not v2.complete:
        return UNKNOWN
    return Derived(False, "default")
