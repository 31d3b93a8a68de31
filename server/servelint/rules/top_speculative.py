"""Speculative-decoding configs ``SpeculativeConfig`` refuses on their own.

``--speculative-config`` is plain JSON until ``EngineArgs.
create_speculative_config`` merges the shortcuts ``--spec-method``,
``--spec-model`` and ``--spec-tokens`` into it and builds
``SpeculativeConfig(**dict)`` (vllm/config/speculative.py) while creating the
engine config.  Its ``__post_init__`` infers the method and the draft model,
then ``_verify_args`` checks the result.  These rules decide only from the
keys written; a draft model's config.json (which may supply ``n_predict``)
is not read.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from ..values import effective
from . import top_facts as tf
from . import vllm_state as st
from ..derive.flags import config_key
from ..derive.view import memo
from .base import Context, Finding, Rule, Value

_READS = frozenset({"speculative_config", "spec_method", "spec_model", "spec_tokens"})

# Methods that, without a model, fall to the ``else`` of the
# ``self.model is None and self.num_speculative_tokens is not None`` branch.
_NEEDS_MODEL = {None, "draft_model", "eagle", "eagle3", "dflash"}
_NEEDS_MODEL_OLD = _NEEDS_MODEL | {"medusa", "mlp_speculator"}  # Literal members up to 0.32.0
# Methods that leave num_speculative_tokens unset when neither it nor a
# model is given (suffix and dspark fill it in themselves).
_NO_TOKENS = {None, "draft_model", "eagle", "eagle3", "dflash", "ngram", "ngram_gpu", "mtp"}
# Methods with no draft model config (so no draft tensor-parallel check).
_MODEL_FREE = {"ngram", "ngram_gpu", "suffix", "custom_class", "extract_hidden_states"}


class Spec(Value):
    """The dict ``SpeculativeConfig`` gets, and the flags that wrote it."""

    _fields = ("values", "flags")

    def __init__(self, values: dict, flags: list | None = None) -> None:
        self.values = values
        self.flags = [] if flags is None else flags

    def get(self, key: str) -> Any:
        return self.values.get(key)

    @property
    def anchor(self):
        return self.flags[-1]


def spec(ctx: Context) -> Spec | None:
    """The merged speculative config, or None (none, or not known); the
    same object for every rule of a launch (not to be changed)."""
    return memo(ctx.invocation, (spec,), lambda: _spec(ctx))


def _spec(ctx: Context) -> Spec | None:
    """The merged speculative config, or None (none, or not known).

    ``create_speculative_config`` (engine/arg_utils.py 0.33.0:2100): a
    shortcut whose key is also in the JSON is an error of its own
    ("mutually exclusive"), left to vLLM; keys have "-" replaced by "_".
    """
    inv = ctx.invocation
    cfg = st.json_of(inv, "speculative_config")
    if not cfg.known:
        return None
    written = bool(st.written(inv, "speculative_config"))
    if written and effective(inv, "speculative_config") is None:
        written = False  # "None"/"null": no speculative config
    values = {config_key(inv.version, "speculative_config", k): v for k, v in cfg.value.items()}
    flags = list(cfg.flags) if written else []
    for dest, key in (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens")):
        if inv.knowledge.by_dest.get(dest) is None or not st.written(inv, dest):
            continue
        v = st.value_of(inv, dest)
        if v.how != "flag":
            return None
        if v.value is None:
            continue
        if key in values:
            return None
        values[key] = v.value
        flags.extend(v.flags)
    if not flags or (not written and not values):
        return None
    if not tf.json_keys_known(inv, "speculative_config", values):
        return None  # SpeculativeConfig refuses the unknown key first
    return Spec(values, flags)


def _tokens(s: Spec) -> int | None | bool:
    """``num_speculative_tokens`` as pydantic takes it; False when invalid."""
    t = s.get("num_speculative_tokens")
    if t is None:
        return None
    if isinstance(t, str) and t.strip().isdigit():
        t = int(t)
    if not tf.is_int(t) or t <= 0:
        return False
    return t


def _method(s: Spec) -> str | None | bool:
    """The method before inference (None: not given); False when not a string."""
    m = s.get("method")
    if m is None:
        return None
    return m if isinstance(m, str) else False


def _model(s: Spec) -> str | None | bool:
    m = s.get("model")
    if m is None:
        return None
    return m if isinstance(m, str) else False


def _custom_path(model: str) -> bool:
    """``SpeculativeConfig._is_custom_proposer_path`` (0.33.0:1215)."""
    if model.startswith(("http://", "https://", "file://")) or "/" in model:
        return False
    parts = model.split(".")
    return len(parts) >= 2 and all(p.isidentifier() for p in parts)


class SpecTokensWithoutModel(Rule):
    """`num_speculative_tokens` without a draft model for a method that needs one.

    ## What it does
    Reports a speculative config that sets `num_speculative_tokens` but no
    `model`, when the method needs a draft model or head: no `method`
    (vLLM then assumes `draft_model`), `draft_model`, `eagle`, `eagle3`,
    `dflash` (and `medusa`, `mlp_speculator` up to 0.32.0). `ngram`,
    `ngram_gpu`, `suffix`, `mtp` and `dspark` need no model.
    `--spec-method`, `--spec-model` and `--spec-tokens` count as the keys
    they set.

    ## Why
    vLLM stops while building its config: "num_speculative_tokens was
    provided but without speculative model."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Add `"model"` (the draft model or EAGLE head), or use a method without
    one (`"method": "ngram"`, or `"mtp"` for models with MTP layers).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, vllm/config/speculative.py:
    0.25.0:697, 0.26.0:731, 0.27.x:742, 0.28.0:797, 0.29.0:1138,
    0.30.0:1169, 0.31.0:1183, 0.32.0:1189, 0.33.0:1294; the shortcuts are
    merged in `EngineArgs.create_speculative_config` (engine/arg_utils.py
    0.33.0:2100).
    """

    code = "SL315"
    vllm_checks = (VllmCheck("spec_no_model", "num_speculative_tokens was provided but without speculative model.", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "spec-num-tokens-without-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    reads = _READS

    def check(self, ctx: Context) -> Iterable[Finding]:
        s = spec(ctx)
        if s is None or _model(s) is not None:
            return
        tokens = _tokens(s)
        if tokens is None or tokens is False:
            return
        method = _method(s)
        needs = _NEEDS_MODEL if tf.at_least(ctx, "0.33.0") else _NEEDS_MODEL_OLD
        if method is False or method not in needs:
            return
        message = "num_speculative_tokens was provided but without speculative model."
        note = "no method means draft_model" if method is None else f"method {method} needs a model"
        yield tf.finding(ctx, s.anchor, message, "spec_no_model", note=note)


class SpecTokensRequired(Rule):
    """A speculative config without `num_speculative_tokens` nor a model to read it from.

    ## What it does
    Reports a speculative config with neither `num_speculative_tokens` nor
    `model`, for the methods that do not fill the count in themselves: no
    method, `draft_model`, `eagle`, `eagle3`, `dflash`, `ngram`,
    `ngram_gpu`, `mtp` (`suffix` uses its tree depth, `dspark` its block
    size). `--speculative-config '{}'` is one. With a `model`, the count may
    come from the draft's `n_predict`, which servelint does not read.

    ## Why
    vLLM stops with "num_speculative_tokens must be provided with
    speculative model unless the draft model config contains an n_predict
    parameter."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram"}'
    ```

    ## Fix
    Add `"num_speculative_tokens": N` (3-5 is usual for ngram and MTP).

    ## vLLM source
    `SpeculativeConfig._verify_args`, vllm/config/speculative.py:
    0.25.0:1142, 0.26.0:1228, 0.27.x:1293, 0.28.0:1356, 0.29.0:1722,
    0.30.0:1788, 0.31.0:1817, 0.32.0:1823, 0.33.0:1950.
    """

    code = "SL316"
    vllm_checks = (VllmCheck("spec_tokens", "speculative model unless the draft model config contains an", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "spec-num-tokens-required"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    reads = _READS

    def check(self, ctx: Context) -> Iterable[Finding]:
        s = spec(ctx)
        if s is None or _model(s) is not None or _tokens(s) is not None:
            return
        method = _method(s)
        if method is False or method not in _NO_TOKENS:
            return
        message = (
            "num_speculative_tokens must be provided with speculative model unless the draft model config "
            "contains an n_predict parameter."
        )
        yield tf.finding(ctx, s.anchor, message, "spec_tokens")


class DraftTensorParallelSize(Rule):
    """`draft_tensor_parallel_size` other than 1 or the target's tensor-parallel size.

    ## What it does
    Reports `draft_tensor_parallel_size` in the speculative config when it
    is neither 1 nor `--tensor-parallel-size`, for configs that load a
    draft model (a `model` with a model-based method, or `mtp`). `ngram`,
    `suffix` and other model-free methods never check it.

    ## Why
    The draft runs on a subset of the target's ranks. vLLM stops with
    "speculative_draft_tensor_parallel_size=4 cannot be other value than 1
    or target model tensor_parallel_size".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 \\
        --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 4, "draft_tensor_parallel_size": 2}'
    ```

    ## Fix
    Use 1 or the target's tensor-parallel size (the default when unset).

    ## vLLM source
    `SpeculativeConfig._verify_and_get_draft_tp`, vllm/config/speculative.py:
    0.25.0:1078, 0.26.0:1164, 0.27.x:1229, 0.28.0:1292, 0.29.0:1658,
    0.30.0:1723, 0.31.0:1735, 0.32.0:1741, 0.33.0:1868.
    """

    code = "SL317"
    vllm_checks = (VllmCheck("draft_tp", "other value than 1 or target model tensor_parallel_size", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "draft-tp-1-or-target-tp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    partners = ("--tensor-parallel-size",)
    reads = _READS | {"tensor_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        s = spec(ctx)
        if s is None:
            return
        dtp = s.get("draft_tensor_parallel_size")
        if not tf.is_int(dtp) or dtp < 1:
            return
        tp = st.value_of(ctx.invocation, "tensor_parallel_size")
        if not tf.is_int(tp.value) or dtp in (1, tp.value):
            return
        method, model, tokens = _method(s), _model(s), _tokens(s)
        if method is False or model is False or tokens is False:
            return
        if model is None:
            if method != "mtp" or tokens is None:
                return  # no draft model is loaded (another rule may fire)
        else:
            if model in ("ngram", "[ngram]") or _custom_path(model) or method in _MODEL_FREE:
                return
            if method not in (None, "draft_model", "eagle", "eagle3", "dflash", "mtp"):
                return
        message = (
            f"speculative_draft_tensor_parallel_size={dtp} cannot be other value than 1 or target model "
            "tensor_parallel_size"
        )
        rel = tf.related(ctx, tp.flags, "target tensor-parallel size set by {flag}")
        yield tf.finding(ctx, s.anchor, message, "draft_tp", note=f"target tensor_parallel_size is {tp.value}",
                         related_to=rel)


def _draft_config(ctx: Context, name: str) -> dict | None:
    """The draft checkpoint's config.json (a local directory or the Hugging
    Face cache), or None."""
    from ..knowledge.models import resolve_model

    env = {k: v.value for k, v in ctx.invocation.env.items() if v.value is not None}
    try:
        import os

        res = resolve_model(name, base_dir=ctx.base_dir, env={**os.environ, **env}, infer=False)
    except Exception:  # resolution is best effort
        return None
    if res is None or res.config is None or res.inferred:
        return None
    cfg = res.config
    return cfg if hasattr(cfg, "get") else None


class DraftVocabSizeMismatch(Rule):
    """A draft model whose vocabulary differs from the target's.

    ## What it does
    Reports a speculative config whose `model` is a separate draft model
    (method unset or `draft_model`, and not detected by vLLM as EAGLE,
    DFlash, DSpark or MTP from its name or config) when both config.json
    files are at hand (local directories or the Hugging Face cache) and their
    `vocab_size` differ, unless `use_heterogeneous_vocab` is set.

    ## Why
    Draft tokens are verified by id, so the tokenizers must agree. vLLM
    stops with "Target and draft model should have the same vocabulary size.
    Target model vocab_size=128256. Draft model vocab_size=151936. ..."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct \\
        --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}'
    ```

    ## Fix
    Use a draft model of the same family (same tokenizer), or set
    `"use_heterogeneous_vocab": true` where the release supports it.

    ## vLLM source
    `SpeculativeConfig.verify_equal_vocab_size_if_draft_model`,
    vllm/config/speculative.py: 0.25.0:1199, 0.26.0:1285, 0.27.x:1350,
    0.28.0:1413, 0.29.0:1779, 0.30.0:1845, 0.31.0:1874, 0.32.0:1880,
    0.33.0:2050 (called at the end of `_verify_args`); method detection in
    `__post_init__` (0.33.0:1432).
    """

    code = "SL318"
    vllm_checks = (VllmCheck("draft_vocab", "Target and draft model should have the same vocabulary size.", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "draft-vocab-size-mismatch"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    reads = _READS | {"model", "hf_overrides"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        s = spec(ctx)
        if s is None:
            return
        method, draft, tokens = _method(s), _model(s), _tokens(s)
        if method not in (None, "draft_model") or not isinstance(draft, str) or not tf.is_int(tokens):
            return
        if s.get("use_heterogeneous_vocab") not in (None, False):
            return
        low = draft.lower()
        if draft in ("ngram", "[ngram]") or _custom_path(draft):
            return
        if any(k in low for k in ("eagle-", "eagle3", "dflash", "dspark")):
            return  # vLLM picks that method from the name
        target = tf.text_config(ctx)
        dcfg = _draft_config(ctx, draft)
        if target is None or dcfg is None:
            return
        archs = dcfg.get("architectures") or []
        if not isinstance(archs, list) or any(
            isinstance(a, str) and any(k in a for k in ("DSpark", "MuseGlimmer", "Eagle", "Medusa", "MLPSpeculator"))
            for a in archs
        ):
            return
        mtype = dcfg.get("model_type")
        if not isinstance(mtype, str) or mtype.endswith("_mtp") or mtype in ("mtp", "medusa", "mlp_speculator", "eagle"):
            return
        dtext = dcfg.get("text_config") if isinstance(dcfg.get("text_config"), dict) else dcfg
        tv, dv = target.get("vocab_size"), dtext.get("vocab_size")
        if not (tf.is_int(tv) and tf.is_int(dv)) or tv == dv:
            return
        message = (
            f"Target and draft model should have the same vocabulary size. Target model vocab_size={tv}. "
            f"Draft model vocab_size={dv}. Using models with different tokenizers can cause out-of-bounds "
            "errors during speculative decoding."
        )
        yield tf.finding(ctx, s.anchor, message, "draft_vocab")
