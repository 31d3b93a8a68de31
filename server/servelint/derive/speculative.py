"""``SpeculativeConfig`` as ``EngineArgs.create_speculative_config`` builds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from ..values import effective, human_readable_int
from .base import FrozenValue, Value, is_int
from .flags import config_key, json_keys_known, json_of, value_of, written
from .view import memo

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from .view import View


# The flags ``speculation`` and ``speculative_args`` read (a rule's ``reads`` hint).
SPECULATIVE_DESTS = frozenset({"speculative_config", "spec_method", "spec_model", "spec_tokens"})


class Speculation(FrozenValue):
    """``VllmConfig.num_speculative_tokens`` and what set it.

    ``active`` None: servelint cannot tell.  ``tokens`` is the explicit
    ``num_speculative_tokens`` (None when vLLM derives it, e.g. from an MTP
    draft's ``n_predict``; it is then still > 0: the field is ``gt=0``,
    config/speculative.py).
    """

    __slots__ = _fields = ("active", "tokens", "method", "flags")

    def __init__(self, active: bool | None, tokens: int | None = None, method: str | None = None,
                 flags: tuple = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "active", active)
        setattr_(self, "tokens", tokens)
        setattr_(self, "method", method)
        setattr_(self, "flags", flags)


def speculation(inv: "Invocation") -> Speculation:
    """Speculative decoding as ``EngineArgs.create_speculative_config`` builds it.

    ``--speculative-config``/``-sc`` (JSON or dotted keys) plus the shortcuts
    ``--spec-method``, ``--spec-model`` and ``--spec-tokens``, merged into one
    dict (engine/arg_utils.py ``create_speculative_config``: 0.27.1 :1790,
    0.28.0 :1830, 0.33.0 :2100).  No dict: no speculative decoding, and
    ``num_speculative_tokens`` is 0 (config/vllm.py ``num_speculative_tokens``:
    0.27.1 :564, 0.28.0 :574, 0.33.0 :612).
    """
    cfg = json_of(inv, "speculative_config")
    if not cfg.known:
        return Speculation(None)
    merged = dict(cfg.value)
    flags = list(cfg.flags)
    for dest, key in (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens")):
        if inv.knowledge.by_dest.get(dest) is None:
            continue
        if not written(inv, dest):
            continue
        v = value_of(inv, dest)
        if v.how == "unknown":
            return Speculation(None)
        merged[key] = v.value
        flags.extend(v.flags)
    merged = {config_key(inv.version, "speculative_config", k): v for k, v in merged.items() if v is not None}
    if not merged:
        return Speculation(False)
    tokens = merged.get("num_speculative_tokens")
    if isinstance(tokens, str):
        try:
            tokens = human_readable_int(tokens)
        except ValueError:
            tokens = None
    if isinstance(tokens, bool) or not isinstance(tokens, int):
        tokens = None
    elif tokens <= 0:
        return Speculation(None)  # SpeculativeConfig rejects it itself
    if "method" not in merged and "model" not in merged:
        return Speculation(None)  # SpeculativeConfig needs one of them
    method = merged.get("method") if isinstance(merged.get("method"), str) else None
    return Speculation(True, tokens, method, tuple(flags))


class SpeculativeArgs(Value):
    """The dict ``SpeculativeConfig(**dict)`` gets from
    ``create_speculative_config``, and the flags that wrote it (the last is
    the one findings are anchored on)."""

    _fields = ("values", "flags")

    def __init__(self, values: dict, flags: list | None = None) -> None:
        self.values = values
        self.flags = [] if flags is None else flags

    def get(self, key: str) -> Any:
        return self.values.get(key)

    @property
    def anchor(self):
        return self.flags[-1]

    @property
    def tokens(self) -> int | None | bool:
        """``num_speculative_tokens`` as pydantic takes it; None when not
        given, False when pydantic refuses it."""
        t = self.get("num_speculative_tokens")
        if t is None:
            return None
        if isinstance(t, str) and t.strip().isdecimal():
            t = int(t)
        if not is_int(t) or t <= 0:
            return False
        return t

    @property
    def method(self) -> str | None | bool:
        """The method before ``__post_init__`` infers one (None: not given);
        False when it is not a string."""
        m = self.get("method")
        if m is None:
            return None
        return m if isinstance(m, str) else False

    @property
    def model(self) -> str | None | bool:
        """The draft model (None: not given); False when it is not a string."""
        m = self.get("model")
        if m is None:
            return None
        return m if isinstance(m, str) else False


def speculative_args(ctx: "View") -> SpeculativeArgs | None:
    """The merged speculative config exactly as written, or None (none, or
    not known); the same object for every rule of a launch (not to be
    changed).

    Unlike ``speculation``, which answers whether speculative decoding is on
    and with how many tokens, this keeps every key, and is None wherever
    ``SpeculativeConfig`` refuses the dict before the checks the rules
    mirror: a shortcut whose key is also in the JSON ("mutually exclusive",
    vLLM's own error), a key that is no field of the class.
    """
    return memo(ctx.invocation, (speculative_args,), lambda: _speculative_args(ctx))


def _speculative_args(ctx: "View") -> SpeculativeArgs | None:
    """``create_speculative_config`` (vllm/engine/arg_utils.py): the JSON
    (dotted keys merged, "-" in keys replaced by "_" where the release does)
    plus the ``--spec-*`` shortcuts."""
    inv = ctx.invocation
    cfg = json_of(inv, "speculative_config")
    if not cfg.known:
        return None
    given = bool(written(inv, "speculative_config"))
    if given and effective(inv, "speculative_config") is None:
        given = False  # "None"/"null": no speculative config
    values = {config_key(inv.version, "speculative_config", k): v for k, v in cfg.value.items()}
    flags = list(cfg.flags) if given else []
    for dest, key in (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens")):
        if inv.knowledge.by_dest.get(dest) is None or not written(inv, dest):
            continue
        v = value_of(inv, dest)
        if v.how != "flag":
            return None
        if v.value is None:
            continue
        if key in values:
            return None
        values[key] = v.value
        flags.extend(v.flags)
    if not flags or (not given and not values):
        return None
    if not json_keys_known(inv, "speculative_config", values):
        return None  # SpeculativeConfig refuses the unknown key first
    return SpeculativeArgs(values, flags)


# Methods that leave num_speculative_tokens unset when neither it nor a
# model is given (suffix and dspark fill it in themselves).
METHODS_WITHOUT_DEFAULT_TOKENS = frozenset({None, "draft_model", "eagle", "eagle3", "dflash", "ngram", "ngram_gpu", "mtp"})

# Methods with no draft model config (``_verify_and_get_draft_tp`` is never
# reached for them).
MODEL_FREE_METHODS = frozenset({"ngram", "ngram_gpu", "suffix", "custom_class", "extract_hidden_states"})


def is_custom_proposer_path(model: str) -> bool:
    """``SpeculativeConfig._is_custom_proposer_path`` (vllm/config/speculative.py)."""
    if model.startswith(("http://", "https://", "file://")) or "/" in model:
        return False
    parts = model.split(".")
    return len(parts) >= 2 and all(p.isidentifier() for p in parts)


def draft_model_config(ctx: "View", name: str) -> dict | None:
    """The draft checkpoint's config.json (a local directory, the Hugging
    Face cache or servelint's bundled copy of a Hub id's), or None.

    The draft is read at the speculative config's ``revision`` and in the
    target's ``config_format`` (``SpeculativeConfig.__post_init__`` builds
    the draft's ``ModelConfig`` with ``revision=self.revision`` and
    ``config_format=self.target_model_config.config_format``,
    vllm/config/speculative.py 0.33.0 :1406).
    """
    import os

    from ..knowledge.models import resolve_model
    from .model import reads_config_json

    args = speculative_args(ctx)
    revision = args.get("revision") if args is not None else None
    bundled = reads_config_json(ctx.invocation) and revision in (None, "main")
    env = {k: v.value for k, v in ctx.invocation.env.items() if v.value is not None}
    try:
        res = resolve_model(name, base_dir=ctx.base_dir, env={**os.environ, **env}, infer=False,
                            revision=revision if isinstance(revision, str) else None, bundled=bundled)
    except Exception:  # resolution is best effort
        return None
    if res is None or res.config is None or res.inferred:
        return None
    cfg = res.config
    return cfg if hasattr(cfg, "get") else None


# -- What ``SpeculativeConfig.__post_init__`` makes of the args ---------------

# From 0.26.0 a dotted ``model`` becomes ``custom_class`` only when no method
# is given; 0.25.0 turns any model with a "." and no "/" into one, whatever
# the method (vllm/config/speculative.py ``__post_init__``, 0.25.0:637).
CUSTOM_PATH_INFERENCE = VllmCheck(
    "speculative.custom_path_inference",
    "if self.method is None and SpeculativeConfig._is_custom_proposer_path(",
    "vllm/config/speculative.py", code=True,
)

# Every model type and architecture name that ``SpeculativeConfig.
# hf_config_override`` tests, in any release 0.25.0-0.33.0 (the string
# constants of the function, read with ``ast``): a draft config that names
# none of them keeps its ``model_type``, so it is an MTP draft only if that
# type already is one.  The draft of ``method: mtp`` without a ``model`` is
# the target itself.
_OVERRIDE_NAMES = frozenset({
    "BailingMoeV2_5ForCausalLM", "BailingMoeV3ForCausalLM", "BailingMoeV3VLForConditionalGeneration",
    "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "GlmOcrForConditionalGeneration", "MiMoForCausalLM",
    "MiMoV2FlashForCausalLM", "MiMoV2ForCausalLM", "MiMoV2OmniForCausalLM", "MiniMaxM3MTP",
    "MiniMaxM3SparseForConditionalGeneration", "MistralLarge3ForCausalLM", "NemotronH_Omni_Reasoning_V3",
    "NemotronH_Super_Omni_Reasoning_V3", "RadioMBartPrefixForCausalLM", "Step3p5ForCausalLM",
    "Step3p7ForConditionalGeneration", "Step5ForCausalLM", "Step5ForConditionalGeneration",
    "bailing_hybrid", "deepseek_v3", "deepseek_v32", "deepseek_v4", "deepseek_v41", "dots3_note", "ernie4_5_moe",
    "exaone_moe", "gemma4_assistant", "gemma4_unified_assistant", "glm5_next", "glm_moe_dsa", "hy_v3", "hy_v4",
    "inkling_mm_model", "inkling_model", "intern_s2_preview", "interns2_mobius", "kimi_k3", "longcat_flash",
    "longcat_flash_ngram", "minimax_m3_vl", "muse_glimmer_assistant", "nemotron_h", "nemotron_h_puzzle",
    "pangu_ultra_moe", "qwen3_5", "qwen3_5_moe", "qwen3_5_moe_text", "qwen3_5_text", "qwen3_next", "qwen4_exp",
    "qwen4_exp_text", "step3p5", "step3p7", "step5", "step5_vl",
})
# The model types ``hf_config_override`` turns into ``deepseek_mtp``, whose
# ``n_predict`` is ``num_nextn_predict_layers`` (every release 0.25.0-0.33.0).
DEEPSEEK_MTP_TYPES = frozenset({"deepseek_v3", "deepseek_v32", "glm_moe_dsa", "deepseek_mtp"})
# From 0.30.0 DeepSeek-V4 and V4.1 become ``deepseek_mtp`` drafts as well
# (V4 with the DeepSeekV4MTPModel architecture, V4.1 keeping its own).
DEEPSEEK_V4_MTP = VllmCheck(
    "speculative.deepseek_v4_mtp", 'if hf_config.model_type in ("deepseek_v4", "deepseek_v41"):',
    "vllm/config/speculative.py", code=True,
)
DEEPSEEK_V4_TYPES = ("deepseek_v4", "deepseek_v41")
# Draft architectures ``__post_init__`` detects a method from, or rewrites
# (DFlash, DSpark): a draft naming one is not modelled here.
_SPECIAL_DRAFT_ARCHITECTURES = frozenset({
    "MuseGlimmerAssistantModel", "Qwen3DSparkModel", "Qwen3OmniDSparkModel", "MuseSparkDSparkModel",
    "Gemma4DSparkModel", "DSparkDraftModel", "K3DSparkModel", "ParseAuxMTPModel",
})
# Draft checkpoints whose own config class carries the method (vLLM's
# ``_SPECULATIVE_DECODING_CONFIGS`` and the older Medusa/MLP speculators).
_SPECULATOR_TYPES = frozenset({"eagle", "speculators", "medusa", "mlp_speculator"})
# The methods the branch of ``__post_init__`` that loads a draft model keeps as given.
_KEPT_METHODS = ("eagle", "eagle3", "dflash", "dspark")
# The name parts it detects a method from, in its order.
_NAMED_METHODS = (("eagle-", "eagle"), ("eagle3", "eagle3"), ("dflash", "dflash"), ("dspark", "dspark"))


def field_info(inv: "Invocation", name: str) -> dict:
    """The release's schema entry of ``SpeculativeConfig`` field ``name`` ({} when it has none)."""
    opt = inv.knowledge.by_dest.get("speculative_config")
    fields = ((getattr(opt, "json", None) or {}).get("fields") or {}) if opt is not None else {}
    info = fields.get(name)
    return info if isinstance(info, dict) else {}


def method_choices(inv: "Invocation") -> frozenset:
    """The ``SpeculativeMethod`` Literal of the release (the ``method`` field's choices)."""
    return frozenset(field_info(inv, "method").get("choices") or ())


def mtp_types(inv: "Invocation") -> frozenset:
    """``MTPModelTypes`` of the release: the methods named ``mtp`` or ``*_mtp``
    (vllm/config/speculative.py, every release 0.25.0-0.33.0)."""
    return frozenset(m for m in method_choices(inv) if m == "mtp" or m.endswith("_mtp"))


def mtp_draft(inv: "Invocation", draft: dict) -> bool | None:
    """Whether the draft's ``model_type``, after ``hf_config_override``, is
    one of ``MTPModelTypes`` (what makes ``__post_init__`` pick ``mtp``); None
    when servelint does not model what the override makes of it."""
    mtype = draft.get("model_type")
    archs = draft.get("architectures")
    if not isinstance(mtype, str) or not isinstance(archs, list) or not archs:
        return None  # hf_config_override reads architectures[0]
    if mtype in mtp_types(inv) or mtype in DEEPSEEK_MTP_TYPES:
        return True
    if mtype in DEEPSEEK_V4_TYPES and validators.has(DEEPSEEK_V4_MTP.key, inv.version):
        return True
    if mtype == "mtp" or mtype.endswith("_mtp"):
        return None
    text = draft.get("text_config") if isinstance(draft.get("text_config"), dict) else {}
    if "num_mtp_layers" in draft or "num_mtp_layers" in text:
        return None  # the Transformers backend's MTP (0.33.0)
    names = {mtype, text.get("model_type"), *(a for a in archs if isinstance(a, str))}
    if mtype == "nemotron_h":
        # An MTP variant only with ``num_nextn_predict_layers`` > 0 (its
        # Transformers default is 0).
        layers = draft.get("num_nextn_predict_layers", 0)
        if not is_int(layers):
            return None
        if layers > 0:
            return True
        names.discard("nemotron_h")
    if names & _OVERRIDE_NAMES or mtype in "pangu_ultra_moe" or "exaone4_5" in mtype:
        return None  # ``in ("pangu_ultra_moe")`` is a substring test; so is ``"exaone4_5" in``
    return False


class Proposer(Value):
    """What ``SpeculativeConfig.__post_init__`` makes of the speculative args.

    ``method``: the method it ends with (inferred, renamed, detected from the
    draft), None when servelint cannot tell.  ``branch``: which part of
    ``__post_init__`` runs: "ngram", "suffix", "custom_class",
    "extract_hidden_states", "draft" (a draft model is loaded), "none" (no
    model and no token count: nothing is built), or None when it raises
    first (``fails`` says which: "no_model", "custom_class",
    "unsupported").  ``model``: the draft model (the target's for ``mtp`` and
    ``dspark`` without one, ``target_draft``).  ``draft``: the draft's
    config.json, None when not at hand.  ``renamed``: a deprecated MTP
    method name vLLM replaced with ``mtp``.  ``n_predict``: the draft's
    ``n_predict`` when servelint knows it (``n_predict_known``).
    """

    _fields = ("args", "method", "branch", "model", "draft", "target_draft", "fails", "renamed",
               "n_predict", "n_predict_known")

    def __init__(self, args: SpeculativeArgs, method: str | None, branch: str | None, model: str | None = None,
                 draft: dict | None = None, target_draft: bool = False, fails: str | None = None,
                 renamed: str | None = None, n_predict: int | None = None, n_predict_known: bool = False) -> None:
        self.args = args
        self.method = method
        self.branch = branch
        self.model = model
        self.draft = draft
        self.target_draft = target_draft
        self.fails = fails
        self.renamed = renamed
        self.n_predict = n_predict
        self.n_predict_known = n_predict_known


def proposer(ctx: "View") -> Proposer | None:
    """The speculative config after ``__post_init__`` infers its method and
    draft (None: no speculative config, or one vLLM refuses before:
    a key of the wrong type, a method outside the Literal)."""
    return memo(ctx.invocation, (proposer,), lambda: _proposer(ctx))


def target_config(ctx: "View") -> dict | None:
    """The target's config.json as the draft of ``mtp``/``dspark`` without a
    ``model`` reads it (the target's path, its own config; a dict
    ``--hf-overrides`` is not applied to the draft), or None."""
    model = ctx.model
    if model is None or model.config is None or model.inferred or written(ctx.invocation, "hf_overrides"):
        return None
    cfg = model.config
    return cfg if hasattr(cfg, "get") else None


def _infer_method(inv: "Invocation", method: str | None, model: str | None) -> str:
    """The first lines of ``__post_init__``: the method when none is given."""
    if validators.has(CUSTOM_PATH_INFERENCE.key, inv.version):
        if method is None and model is not None and is_custom_proposer_path(model):
            return "custom_class"
    elif (model is not None and "." in model and "/" not in model
          and not model.startswith(("http://", "https://", "file://"))):
        return "custom_class"
    if method is None:
        return "ngram" if model in ("ngram", "[ngram]") else "draft_model"
    return method


def _proposer(ctx: "View") -> Proposer | None:
    """``SpeculativeConfig.__post_init__`` (vllm/config/speculative.py,
    0.25.0:627 .. 0.33.0:1258): the method inferred, a deprecated MTP name
    replaced, the model filled in for methods without one, then the branch
    per method; in the draft-model branch the method detected from the
    draft's name and config (``eagle-``/``eagle3``/``dflash``/``dspark`` in
    the name, an MTP ``model_type`` after ``hf_config_override``), else
    ``NotImplementedError`` for a method other than ``draft_model``."""
    s = speculative_args(ctx)
    if s is None:
        return None
    inv = ctx.invocation
    served = ctx.model
    if served is not None and served.config is not None and served.config.get("speculators_config") is not None:
        return None  # a speculator served as the model: vLLM rewrites the launch from its config
    method, model, tokens = s.method, s.model, s.tokens
    if method is False or model is False or tokens is False:
        return None
    choices = method_choices(inv)
    if method is not None and choices and method not in choices:
        return None  # pydantic refuses it first (invalid-value)
    method = _infer_method(inv, method, model)
    renamed = None
    if method != "mtp" and method in mtp_types(inv):
        renamed, method = method, "mtp"
    target_draft = False
    if model is None and tokens is not None:
        if method in ("mtp", "dspark"):
            word = inv.model
            if word is not None and not word.exact:
                return None
            target = inv.model_name
            model, target_draft = target, True
        elif method == "ngram":
            model = "ngram"
        elif method in ("ngram_gpu", "suffix", "extract_hidden_states"):
            model = method
        elif method == "custom_class":
            return Proposer(s, method, None, fails="custom_class", renamed=renamed)
        else:
            return Proposer(s, method, None, fails="no_model", renamed=renamed)
    if method in ("ngram", "ngram_gpu"):
        return Proposer(s, method, "ngram", model, renamed=renamed)
    if method in ("suffix", "custom_class", "extract_hidden_states"):
        return Proposer(s, method, method, model, renamed=renamed)
    if model is None:
        return Proposer(s, method, "none", renamed=renamed)
    draft = target_config(ctx) if target_draft else draft_model_config(ctx, model)
    final = _detect(ctx, method, model, draft)
    if final == "unsupported":
        return Proposer(s, method, None, model, draft, target_draft, fails="unsupported", renamed=renamed)
    n_predict, known = None, False
    if draft is not None and final == "mtp" and draft.get("model_type") in DEEPSEEK_MTP_TYPES:
        n_predict, known = draft.get("num_nextn_predict_layers"), True
    elif draft is not None and final == "draft_model":
        n_predict, known = draft.get("n_predict"), True
    if known and n_predict is not None and not is_int(n_predict):
        n_predict, known = None, False
    return Proposer(s, final, "draft", model, draft, target_draft, renamed=renamed, n_predict=n_predict,
                    n_predict_known=known)


def _detect(ctx: "View", method: str, model: str, draft: dict | None) -> str | None:
    """The method the draft-model branch settles on, "unsupported" when it
    raises ``NotImplementedError``, None when servelint cannot tell."""
    if method in _KEPT_METHODS:
        return method
    lower = model.lower()
    for part, named in _NAMED_METHODS:
        if part in lower:
            return named
    if method == "medusa":
        return method  # up to 0.32.0 its draft is loaded with ``model_type`` forced to medusa
    if draft is None:
        return None
    archs = draft.get("architectures")
    if not isinstance(archs, list) or not archs or not all(isinstance(a, str) for a in archs):
        return None
    if set(archs) & _SPECIAL_DRAFT_ARCHITECTURES:
        return None
    mtype = draft.get("model_type")
    if mtype in ("medusa", "mlp_speculator") and mtype in method_choices(ctx.invocation):
        return mtype  # detected from the draft's type while they were methods (up to 0.32.0)
    if draft.get("speculators_config") is not None or mtype in _SPECULATOR_TYPES:
        return None  # a speculator checkpoint: its config decides (SpeculatorsConfig, EAGLEConfig)
    mtp = mtp_draft(ctx.invocation, draft)
    if mtp is None:
        return None
    if mtp:
        return "mtp"
    return "draft_model" if method == "draft_model" else "unsupported"


# -- The draft's slots in the scheduler's token budget -------------------------

# 0.25.0-0.27.1: the scheduled-token budget is the batched one less the
# draft's slots of every sequence; later releases schedule the whole budget.
SCHEDULED_MINUS_SLOTS = VllmCheck(
    "speculative.scheduled_minus_slots", "max_num_batched_tokens - scheduled_token_delta",
    "vllm/config/vllm.py", code=True,
)
# 0.25.0-0.27.1 ``max_num_new_slots_for_drafting``: parallel drafting first
# (K - 1), plus one for a draft model.
PARALLEL_SLOTS_FIRST = VllmCheck(
    "speculative.parallel_slots_first", "slots_per_req = self.num_speculative_tokens - 1",
    "vllm/config/speculative.py", code=True,
)
# 0.33.0: the budget is checked against ``VllmConfig.num_lookahead_tokens``.
LOOKAHEAD_BUDGET = VllmCheck(
    "speculative.lookahead_budget", "if max_num_batched_tokens <= self.num_lookahead_tokens:",
    "vllm/config/vllm.py", code=True,
)
VLLM_FACTS = (CUSTOM_PATH_INFERENCE, DEEPSEEK_V4_MTP, SCHEDULED_MINUS_SLOTS, PARALLEL_SLOTS_FIRST, LOOKAHEAD_BUDGET)

# ``SpeculativeConfig.use_eagle`` (every release 0.25.0-0.33.0).
EAGLE_LIKE_METHODS = ("eagle", "eagle3", "mtp", "dflash", "dspark")


def draft_slots(ctx: "View", p: Proposer, tokens: int) -> int | None:
    """The per-request slots the drafter adds to the scheduler's token budget,
    as ``VllmConfig._set_max_num_scheduled_tokens`` compares them: 0.33.0
    ``num_lookahead_tokens`` (config/vllm.py :626: K + 1 for DFlash and
    fill-in DSpark, K for the other EAGLE-style drafters and draft models,
    else 0); before, ``SpeculativeConfig.max_num_new_slots_for_drafting``
    (0.28.0-0.32.0: K for DFlash, K for a parallel draft model, K - 1 for
    other parallel drafting, 1 for a draft model, else 0; 0.25.0-0.27.1:
    K - 1 with parallel drafting, plus 1 for a draft model).  DFlash and
    DSpark always draft in parallel.  None when servelint cannot tell."""
    method = p.method
    if method is None or p.fails is not None or p.branch in (None, "none"):
        return None
    parallel = p.args.get("parallel_drafting") is True or (p.branch == "draft" and method in ("dflash", "dspark"))
    version = ctx.version
    if validators.has(LOOKAHEAD_BUDGET.key, version):
        fill_in = False
        if method == "dspark":
            if p.draft is None:
                return None
            fill_in = p.draft.get("sample_from_anchor", True) is not True
        if method == "dflash" or fill_in:
            return tokens + 1
        if method in EAGLE_LIKE_METHODS or method == "draft_model":
            return tokens
        return 0
    if validators.has(PARALLEL_SLOTS_FIRST.key, version):
        slots = tokens - 1 if parallel else 0
        return slots + 1 if method == "draft_model" else slots
    if method == "dflash":
        return tokens
    if parallel:
        return tokens if method == "draft_model" else tokens - 1
    return 1 if method == "draft_model" else 0
