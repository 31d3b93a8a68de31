"""``SpeculativeConfig`` as ``EngineArgs.create_speculative_config`` builds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..values import effective, human_readable_int
from .base import FrozenValue, Value, at_least, is_int
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
        if isinstance(t, str) and t.strip().isdigit():
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


# ``SpeculativeConfig.__post_init__`` (vllm/config/speculative.py): methods
# that, without a model, fall to the ``else`` of the ``self.model is None and
# self.num_speculative_tokens is not None`` branch (None: no method, which
# becomes draft_model).  ``medusa`` and ``mlp_speculator`` were members of
# the ``SpeculativeMethod`` Literal up to 0.32.0 and took that branch too.
_NEEDS_MODEL = frozenset({None, "draft_model", "eagle", "eagle3", "dflash"})
_NEEDS_MODEL_BEFORE_0_33 = _NEEDS_MODEL | {"medusa", "mlp_speculator"}

# Methods that leave num_speculative_tokens unset when neither it nor a
# model is given (suffix and dspark fill it in themselves).
METHODS_WITHOUT_DEFAULT_TOKENS = frozenset({None, "draft_model", "eagle", "eagle3", "dflash", "ngram", "ngram_gpu", "mtp"})

# Methods with no draft model config (``_verify_and_get_draft_tp`` is never
# reached for them).
MODEL_FREE_METHODS = frozenset({"ngram", "ngram_gpu", "suffix", "custom_class", "extract_hidden_states"})


def methods_needing_model(version: str) -> frozenset:
    """The methods for which ``num_speculative_tokens`` without a ``model``
    is an error in ``version``."""
    return _NEEDS_MODEL if at_least(version, "0.33.0") else _NEEDS_MODEL_BEFORE_0_33


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

