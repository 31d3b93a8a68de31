"""SL445: a DSpark draft for a Qwen3-Omni target that breaks the Qwen3-Omni DSpark checkpoint contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Iterable

from ...derive.base import is_int
from ...derive.speculative import proposer, target_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, draft_site, int_key, key_finding, settled_method, speculative_written

_PATH = "vllm/config/speculative.py"


def _check(key: str, needle: str) -> VllmCheck:
    return VllmCheck(f"speculative.qwen3_omni_dspark_{key}", needle, _PATH)


_ARCH = _check("architectures", "Qwen3-Omni DSpark requires a standalone draft checkpoint with ")
_BLOCK = _check("block_size", "Qwen3-Omni DSpark requires a positive integer block_size in the ")
_TOKENS = _check("tokens", "Qwen3-Omni DSpark requires num_speculative_tokens to match the ")
_TARGET_HIDDEN = _check("target_hidden_size", "Qwen3-Omni DSpark draft target_hidden_size must match the target ")
_HIDDEN = _check("hidden_size", "Qwen3-Omni DSpark draft hidden_size must match the target thinker ")
_TARGET_ATTN = _check("target_attention", " in the target thinker text_config; got {}.")
_ATTN = _check("attention", " must match the target thinker value ({}); got {}.")
_LAYER_IDS = _check("layer_ids", "Qwen3-Omni DSpark requires a non-empty target_layer_ids list in ")
_LAYER_INTS = _check("layer_ids_int", "Qwen3-Omni DSpark target_layer_ids must contain only integers.")
_LAYER_SORTED = _check("layer_ids_sorted", "Qwen3-Omni DSpark target_layer_ids must be unique and strictly")
_LAYER_RANGE = _check("layer_ids_range", "Qwen3-Omni DSpark target_layer_ids must be zero-based text-layer ")
_AUX = _check("aux_hidden_state", "Qwen3-Omni DSpark requires use_aux_hidden_state=true because Omni ")
_MARKOV_RANK = _check("markov_rank", "Qwen3-Omni DSpark requires a positive integer markov_rank in the ")
_MARKOV_HEAD = _check("markov_head_type", "Qwen3-Omni DSpark currently requires markov_head_type='vanilla'; ")
_ANCHOR = _check("anchor", "Qwen3-Omni DSpark requires sample_from_anchor=true and ")
_VOCAB = _check("vocab_size", "Qwen3-Omni DSpark input vocab_size must be a positive integer; ")
_DRAFT_VOCAB = _check("draft_vocab_size", "Qwen3-Omni DSpark draft_vocab_size must be a positive integer no ")
_MASK = _check("mask_token", "Qwen3-Omni DSpark requires a valid mask/noise token id within the ")
_MROPE = _check("mrope", "Qwen3-Omni DSpark draft checkpoints must use logical 1-D RoPE and ")

# ``_QWEN3_OMNI_TARGET_ARCHITECTURES`` and ``_QWEN3_OMNI_DSPARK_ARCHITECTURE``
# (vllm/config/speculative.py 0.29.0:85-91 .. 0.33.0:86-92).
_TARGET_ARCHITECTURES = frozenset({"Qwen3OmniMoeForConditionalGeneration", "Qwen3OmniMoeThinkerForConditionalGeneration"})
_OMNI_DSPARK = "Qwen3OmniDSparkModel"
# The draft architectures vLLM keeps for ``dspark_draft_topk`` (checked just before).
_TOPK_ARCHITECTURES = frozenset({"Qwen3DSparkModel", _OMNI_DSPARK})


def _py(value) -> str:
    """``str()`` of a config value as Python prints it in an f-string."""
    return str(value)


def _pos_int(value) -> bool:
    return is_int(value) and value > 0


def _nested(cfg: dict, section: str, name: str):
    """``_get_nested_config_value``: a dict section's key (an attribute of
    anything else, which a JSON value other than an object does not have)."""
    nested = cfg.get(section)
    return nested.get(name) if isinstance(nested, Mapping) else None


def _dspark_value(cfg: dict, name: str):
    """``_get_qwen3_dspark_value``: ``dflash_config``, then ``eagle_config``, then the top level."""
    value = _nested(cfg, "dflash_config", name)
    if value is None:
        value = _nested(cfg, "eagle_config", name)
    if value is None:
        value = cfg.get(name)
    return value


class _Unknown(Exception):
    """A value the check reads that config.json does not show (a config class's default)."""


def _written(cfg: dict, name: str):
    """A field the config class gives a default: as written, else unknown."""
    if name not in cfg or cfg[name] is None:
        raise _Unknown(name)
    return cfg[name]


def _head_dim(cfg: dict):
    """``_get_attention_head_dim`` as written: the Qwen3 config classes give
    ``head_dim`` a default (Qwen3Config: 128), so an absent one is unknown."""
    return _written(cfg, "head_dim")


def contract(draft: dict, target: dict, tokens: int) -> "tuple[VllmCheck, str] | None":
    """``_validate_qwen3_omni_dspark`` (vllm/config/speculative.py
    0.29.0:147 .. 0.33.0:167-391, the same in every release): the first check
    the draft breaks and vLLM's message, None when it passes or servelint
    cannot tell (a field left to its config class's default).  ``draft`` is
    the draft's config.json, ``target`` the Qwen3-Omni target's."""
    archs = draft.get("architectures")
    if not isinstance(archs, list) or _OMNI_DSPARK not in archs:
        return _ARCH, ("Qwen3-Omni DSpark requires a standalone draft checkpoint with "
                       f"architectures=['{_OMNI_DSPARK}']; generic Qwen3DSparkModel checkpoints must be converted first.")
    block = _dspark_value(draft, "block_size")
    if block is None:
        block = _dspark_value(draft, "dspark_block_size")
    if not _pos_int(block):
        return _BLOCK, "Qwen3-Omni DSpark requires a positive integer block_size in the draft config."
    if tokens != block:
        return _TOKENS, (f"Qwen3-Omni DSpark requires num_speculative_tokens to match the trained block_size "
                         f"({block}); got {tokens}.")
    if target.get("model_type") != "qwen3_omni_moe" or draft.get("model_type") != "qwen3":
        return None  # a text config or draft config class whose defaults servelint does not model
    thinker = target.get("thinker_config")
    text = thinker.get("text_config") if isinstance(thinker, dict) else None
    if not isinstance(text, dict):
        return None  # Qwen3OmniMoeConfig's default thinker
    try:
        return _shapes(draft, text)
    except _Unknown:
        return None


def _shapes(draft: dict, text: dict) -> "tuple[VllmCheck, str] | None":
    """The rest of ``_validate_qwen3_omni_dspark``, from the hidden sizes on;
    raises ``_Unknown`` where it reads a default."""
    hidden = _written(text, "hidden_size")
    got = draft.get("target_hidden_size")
    if got != hidden:
        return _TARGET_HIDDEN, (f"Qwen3-Omni DSpark draft target_hidden_size must match the target text hidden size "
                                f"({_py(hidden)}); got {_py(got)}.")
    got = _written(draft, "hidden_size")
    if got != hidden:
        return _HIDDEN, (f"Qwen3-Omni DSpark draft hidden_size must match the target thinker hidden size "
                         f"({_py(hidden)}); got {_py(got)}.")
    target_attn = {
        "num_attention_heads": lambda: _written(text, "num_attention_heads"),
        "num_key_value_heads": lambda: _written(text, "num_key_value_heads"),
        "head_dim": lambda: _head_dim(text),
    }
    draft_attn = {
        "num_attention_heads": lambda: _written(draft, "num_attention_heads"),
        "num_key_value_heads": lambda: _written(draft, "num_key_value_heads"),
        "head_dim": lambda: _head_dim(draft),
    }
    for name, read in target_attn.items():
        value = read()
        if not _pos_int(value):
            return _TARGET_ATTN, (f"Qwen3-Omni DSpark requires a positive integer {name} in the target thinker "
                                  f"text_config; got {_py(value)}.")
        got = draft_attn[name]()
        if got != value:
            return _ATTN, (f"Qwen3-Omni DSpark draft {name} must match the target thinker value ({_py(value)}); "
                           f"got {_py(got)}.")
    ids = _nested(draft, "dflash_config", "target_layer_ids")
    if ids is None:
        ids = draft.get("dspark_target_layer_ids")
    if ids is None:
        ids = draft.get("target_layer_ids")
    if not isinstance(ids, list) or not ids:
        return _LAYER_IDS, "Qwen3-Omni DSpark requires a non-empty target_layer_ids list in the draft config."
    if not all(is_int(i) for i in ids):
        return _LAYER_INTS, "Qwen3-Omni DSpark target_layer_ids must contain only integers."
    if ids != sorted(set(ids)):
        return _LAYER_SORTED, "Qwen3-Omni DSpark target_layer_ids must be unique and strictly increasing."
    layers = _written(text, "num_hidden_layers")
    if not is_int(layers):
        return None
    if ids[0] < 0 or ids[-1] >= layers:
        return _LAYER_RANGE, (f"Qwen3-Omni DSpark target_layer_ids must be zero-based text-layer indices in "
                              f"[0, {layers - 1}]; got {_py(ids)}.")
    if _dspark_value(draft, "use_aux_hidden_state") is not True:
        return _AUX, ("Qwen3-Omni DSpark requires use_aux_hidden_state=true because Omni conditioning is "
                      "supplied through thinker hidden states.")
    if not _pos_int(draft.get("markov_rank")):
        return _MARKOV_RANK, "Qwen3-Omni DSpark requires a positive integer markov_rank in the draft config."
    head = draft.get("markov_head_type")
    if head != "vanilla":
        return _MARKOV_HEAD, f"Qwen3-Omni DSpark currently requires markov_head_type='vanilla'; got {head!r}."
    if draft.get("sample_from_anchor", True) is not True or draft.get("dspark_bonus_anchor", False) is not False:
        return _ANCHOR, "Qwen3-Omni DSpark requires sample_from_anchor=true and dspark_bonus_anchor=false."
    target_vocab = _written(text, "vocab_size")
    vocab = _written(draft, "vocab_size")
    if not _pos_int(vocab):
        return _VOCAB, f"Qwen3-Omni DSpark input vocab_size must be a positive integer; got {_py(vocab)}."
    if not is_int(target_vocab):
        return None
    out = draft.get("draft_vocab_size")
    if out is None:
        out = vocab
    if not is_int(out) or not 0 < out <= target_vocab:
        return _DRAFT_VOCAB, (f"Qwen3-Omni DSpark draft_vocab_size must be a positive integer no larger than target "
                              f"vocab_size ({target_vocab}); got {_py(out)}.")
    noise = _nested(draft, "dflash_config", "mask_token_id")
    for name in ("mask_token_id", "dspark_noise_token_id", "pard_token", "ptd_token_id"):
        if noise is None:
            noise = draft.get(name)
        if noise is not None:
            break
    if not is_int(noise) or not 0 <= noise < vocab:
        return _MASK, ("Qwen3-Omni DSpark requires a valid mask/noise token id within the draft input vocabulary "
                       f"[0, {vocab - 1}].")
    ropes = (draft.get("rope_parameters"), draft.get("rope_scaling"))
    if draft.get("mrope_section") is not None or any(isinstance(r, Mapping) and "mrope_section" in r for r in ropes):
        return _MROPE, "Qwen3-Omni DSpark draft checkpoints must use logical 1-D RoPE and must not define mrope_section."
    return None


def _is_omni_target(target: dict) -> bool:
    """``_is_qwen3_omni_target``: the target's ``model_type`` or architectures."""
    archs = target.get("architectures")
    archs = set(a for a in archs if isinstance(a, str)) if isinstance(archs, list) else set()
    return target.get("model_type") == "qwen3_omni_moe" or bool(archs & _TARGET_ARCHITECTURES)


def _dspark(p) -> bool:
    """Whether ``__post_init__`` ends with ``method = "dspark"``: settled by
    ``derive.speculative.proposer``, or (what it leaves open) a draft named
    without a method whose architectures name the Qwen3-Omni DSpark model
    and nothing vLLM detects before it."""
    method = settled_method(p)
    if method is not None:
        return method == "dspark"
    if p is None or p.fails is not None or p.branch != "draft" or p.draft is None:
        return False
    if p.args.method not in (None, "draft_model") or not isinstance(p.model, str):
        return False
    lower = p.model.lower()
    archs = p.draft.get("architectures")
    if not isinstance(archs, list) or _OMNI_DSPARK not in archs or "MuseGlimmerAssistantModel" in archs:
        return False
    return not any(part in lower for part in ("eagle-", "eagle3", "dflash"))


class Qwen3OmniDsparkCheckpoint(Rule):
    """A DSpark draft for a Qwen3-Omni target that breaks the Qwen3-Omni DSpark checkpoint contract.

    ## What it does
    Reports a speculative config whose method is (or vLLM detects as)
    `dspark` on a Qwen3-Omni target (`model_type` `qwen3_omni_moe`, or a
    Qwen3-Omni architecture) when the draft's config.json breaks the first
    rule of the contract vLLM checks: the draft must be a converted
    `Qwen3OmniDSparkModel` checkpoint, its `block_size` a positive integer
    equal to `num_speculative_tokens`, its `target_hidden_size`,
    `hidden_size`, attention heads, KV heads and head size those of the
    target's thinker text config, its `target_layer_ids` a non-empty,
    strictly increasing list of the target's text layers, with
    `use_aux_hidden_state: true`, a positive `markov_rank`,
    `markov_head_type: "vanilla"`, `sample_from_anchor` true and
    `dspark_bonus_anchor` false, a `draft_vocab_size` no larger than the
    target's vocabulary, a mask/noise token id inside the draft's
    vocabulary, and no `mrope_section`.

    ## Why
    The Qwen3-Omni drafter conditions on the thinker's hidden states of the
    listed layers and decodes a fixed block, so a checkpoint trained for
    another target or converted wrongly cannot run. vLLM stops at the first
    broken rule, e.g. "Qwen3-Omni DSpark requires num_speculative_tokens to
    match the trained block_size (4); got 3." or "Qwen3-Omni DSpark requires
    use_aux_hidden_state=true because Omni conditioning is supplied through
    thinker hidden states."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-Omni-30B-A3B-Instruct --speculative-config \\
        '{"model": "./qwen3-omni-dspark-block4", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Set `num_speculative_tokens` to the draft's `block_size`; otherwise use
    a draft checkpoint converted for this target (a generic
    `Qwen3DSparkModel` checkpoint must be converted to
    `Qwen3OmniDSparkModel` first).

    ## Evidence
    The speculative config as written (`num_speculative_tokens` must be
    written), the target's config.json and the draft's (for `dspark`
    without `model`, the target's own), the draft's architecture
    registered in the release. Past the architecture and block-size rules,
    only a `qwen3_omni_moe` target with a written thinker `text_config` and
    a `qwen3` draft: a field these read that config.json leaves to its
    config class's default (`hidden_size`, the head counts, `head_dim`,
    `num_hidden_layers`, `vocab_size`) keeps the rule silent. Silent too
    when `xpress_topc` is written, when a `dspark_draft_topk` (written or
    the draft's) fails vLLM's earlier checks, and when the draft's
    `n_predict` does not divide the token count (0.29.0-0.30.0 check it
    first).

    ## vLLM source
    `_validate_qwen3_omni_dspark`, called from `SpeculativeConfig.__post_init__`
    after the `dspark_draft_topk` checks.
    """

    code = "SL445"
    name = "qwen3-omni-dspark-checkpoint"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_ARCH, _BLOCK, _TOKENS, _TARGET_HIDDEN, _HIDDEN, _TARGET_ATTN, _ATTN, _LAYER_IDS, _LAYER_INTS,
                   _LAYER_SORTED, _LAYER_RANGE, _AUX, _MARKOV_RANK, _MARKOV_HEAD, _ANCHOR, _VOCAB, _DRAFT_VOCAB,
                   _MASK, _MROPE)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if not _dspark(p) or p.branch != "draft" or not draft_loads(ctx, p):
            return
        target = target_config(ctx)
        if target is None or not _is_omni_target(target):
            return
        tokens = int_key(p.args, "num_speculative_tokens")
        if tokens is None or tokens < 1 or p.args.get("xpress_topc") is not None:
            return  # no token count: another check first; xpress_topc: "only supported by XPress" first
        draft = p.draft
        if not self._earlier_checks_pass(p, draft, tokens):
            return
        result = contract(draft, target, tokens)
        if result is None:
            return
        check, message = result
        key = "num_speculative_tokens" if check is _TOKENS else draft_site(p)[0]
        if key == "model" and p.args.get("model") is None:
            key = "method"
        yield key_finding(ctx, p.args, key, message, check.key)

    @staticmethod
    def _earlier_checks_pass(p, draft: dict, tokens: int) -> bool:
        """The checks of ``__post_init__`` between the draft's load and the
        contract that servelint must see pass: ``n_predict`` divisibility
        (0.29.0-0.30.0 run it for DSpark too) and ``dspark_draft_topk``."""
        n = draft.get("n_predict")
        if n is not None and (not is_int(n) or n <= 0 or (tokens > n and tokens % n != 0)):
            return False
        topk = p.args.get("dspark_draft_topk")
        if topk is None:
            topk = draft.get("dspark_draft_topk")
        if topk is None:
            return True
        vocab = draft.get("draft_vocab_size") or draft.get("vocab_size")
        archs = draft.get("architectures")
        return (is_int(topk) and is_int(vocab) and 1 <= topk <= vocab and isinstance(archs, list)
                and bool(set(archs) & _TOPK_ARCHITECTURES))
