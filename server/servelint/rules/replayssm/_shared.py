"""``--use-replayssm``: the checks of ``VllmConfig.validate_mamba_cached_kernel``.

vLLM checks a ReplaySSM launch in one validator (vllm/config/vllm.py,
``validate_mamba_cached_kernel``) that stops at its first error.  Its shape
changed in almost every release since the flag appeared in 0.27.0.  Which
shape a release has is read from the generated table of its checks
(``knowledge/data/validators.json``), not from its version number:

* independent checks (the release raises "--use-replayssm does not support
  speculative decoding", 0.27.0-0.28.0): architecture, Mamba cache mode
  'all', speculative decoding, backend other than triton, KV connector;
* any speculative decoding is KDA RecoverSSM (the release raises
  "RecoverSSM is only supported for Kimi-K3 KDA", 0.29.0-0.31.0); mode
  'all' is checked only without it; where the release has the
  FlashInfer arm ("--use-replayssm requires --mamba-backend triton or
  flashinfer", from 0.30.0) the backend checks follow it, else the plain
  triton check;
* KDA RecoverSSM or Mamba2 speculative decoding (neither of those
  messages, 0.32.0+): speculative decoding on a non-Kimi model is possible
  with FlashInfer (prefix caching off, buffer >= 1 + k), buffer <= 16 for
  FlashInfer; where the KV-connector check exempts KDA RecoverSSM (a code
  fact, 0.33.0) Kimi RecoverSSM may use connectors.

Each message is the release's own, from the same table.

``problems`` walks the release's shape over what vLLM derives from the
launch (``servelint.derive``) and returns *every* check that fails, not only
the first: each is a problem that would still stop vLLM once the ones before
it were fixed.  Checks are evaluated on the launch as written; two
exceptions, because their fix changes which checks apply at all: an
unsupported architecture is reported alone, and a non-Kimi model rejected by
RecoverSSM (0.29.0-0.31.0) skips the rest of the RecoverSSM checks.  A check
whose inputs servelint cannot know (an unresolved architecture, a value set
at run time) is skipped.

One rule per aspect reports the problems of its kind, each anchored on
``--use-replayssm`` (in a ``--config`` file, the ``use-replayssm`` key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...derive.base import Derived
from ...derive.cache import mamba_cache_mode, replayssm_buffer_len, replayssm_flag
from ...derive.flags import written
from ...derive.kv_transfer import kv_connector
from ...derive.mamba import mamba_backend, stochastic_rounding
from ...derive.model import arch_facts
from ...derive.parallel import pipeline_parallel_size
from ...derive.runner import V2_CHOICE_DESTS, V2_ENV, use_v2_model_runner
from ...derive.speculative import SPECULATIVE_DESTS, speculation
from ...derive.view import memo
from ...diagnostics import Applicability, Category, Fix, Related, Severity
from ...edits import remove_flags, rename_flag, set_value
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import (
    Context, Finding, Rule, Value, inferred_architecture, path_of, release_has, vllm_message, vllm_source,
)

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag

# ``kda_architectures`` of validate_mamba_cached_kernel (0.29.0+).
KDA_ARCHITECTURES = ("KimiLinearForCausalLM", "KimiK3ForConditionalGeneration")

# The raises of ``validate_mamba_cached_kernel`` this family mirrors, by
# Problem key; where each is, per release, is generated.
_VLLM_PY = "vllm/config/vllm.py"
CHECKS = {
    c.key: c
    for c in (
        VllmCheck("replayssm.arch", ("--use-replayssm is not supported for architecture ",
                                     "--use-replayssm is only supported for Nemotron-H models "), _VLLM_PY),
        VllmCheck("replayssm.all", "--use-replayssm supports prefix caching only in align mode; ", _VLLM_PY),
        VllmCheck("replayssm.spec", "--use-replayssm does not support speculative decoding", _VLLM_PY),
        VllmCheck("replayssm.triton", "--use-replayssm requires --mamba-backend triton", _VLLM_PY, whole=True),
        VllmCheck("replayssm.kv", "--use-replayssm is incompatible with KV connectors ", _VLLM_PY),
        # 0.33.0 exempts KDA RecoverSSM from the KV-connector check with
        # ``and not self.cache_config.use_kda_recoverssm``; that text is also
        # the end of the ``use_mamba_replayssm_spec`` line (0.32.0+), which a
        # line-by-line match cannot tell apart, so the fact is the comment
        # vLLM wrote on the exemption.
        VllmCheck("replayssm.kv_kda_exempt", "KV connectors transfer it as usual", _VLLM_PY, code=True),
        VllmCheck("replayssm.kimi", "RecoverSSM is only supported for Kimi-K3 KDA", _VLLM_PY),
        VllmCheck("replayssm.sr", "RecoverSSM supports bfloat16/float32 ", _VLLM_PY),
        VllmCheck("replayssm.rs_modes", "RecoverSSM supports only none and align Mamba cache modes", _VLLM_PY),
        VllmCheck("replayssm.rs_v2", ("RecoverSSM with prefix caching requires VLLM_USE_V2_MODEL_RUNNER=1",
                                      "RecoverSSM with align mode requires VLLM_USE_V2_MODEL_RUNNER=1"), _VLLM_PY),
        VllmCheck("replayssm.pp", "RecoverSSM currently requires pipeline_parallel_size=1", _VLLM_PY),
        VllmCheck("replayssm.rs_triton", "RecoverSSM requires --mamba-backend triton", _VLLM_PY, whole=True),
        VllmCheck("replayssm.fi_align", ("FlashInfer ReplaySSM does not support prefix caching yet; ",
                                         "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet"), _VLLM_PY),
        VllmCheck("replayssm.triton_fi", "--use-replayssm requires --mamba-backend triton or flashinfer", _VLLM_PY),
        VllmCheck("replayssm.v1", "Triton ReplaySSM requires Model Runner V1; use ", _VLLM_PY),
        VllmCheck("replayssm.buf16", "FlashInfer ReplaySSM requires --replayssm-buffer-len <= 16", _VLLM_PY),
        VllmCheck("replayssm.spec_none", ("FlashInfer ReplaySSM speculative decoding does not support prefix caching",
                                          "FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none"),
                  _VLLM_PY),
        VllmCheck("replayssm.spec_buf", "FlashInfer ReplaySSM speculative decoding requires --replayssm-buffer-len",
                  _VLLM_PY),
        VllmCheck("replayssm.spec_fi", "Mamba2 ReplaySSM speculative decoding requires ", _VLLM_PY),
    )
}


def checks(*names: str) -> tuple[VllmCheck, ...]:
    """The family's checks ``replayssm.NAME``, for a rule's ``vllm_checks``."""
    return tuple(CHECKS[f"replayssm.{n}"] for n in names)


# Rule names, one per aspect.
ARCH = "replayssm-architecture"
SPEC = "replayssm-speculative-decoding"
PREFIX = "replayssm-prefix-caching"
BACKEND = "replayssm-mamba-backend"
BUFFER = "replayssm-buffer-length"
RUNNER = "replayssm-model-runner"
KV = "replayssm-kv-connector"
RECOVER = "replayssm-recoverssm"

# The rules' ``reads`` hints.
BASE_READS = frozenset({"use_replayssm", "model", "hf_overrides"})
SPEC_READS = SPECULATIVE_DESTS
PC_READS = frozenset({"enable_prefix_caching", "mamba_cache_mode"})
V2_READS = frozenset({V2_ENV, *V2_CHOICE_DESTS})


class Problem(Value):
    """One failing check of ``validate_mamba_cached_kernel``.

    ``message`` is exactly what vLLM raises; ``key`` says which raise (see
    CHECKS); ``partners`` are the written flags it is about; ``note`` is
    servelint's clause after the vLLM text; ``uses_arch``: it depends on the
    model's architecture; ``env``: it is about VLLM_USE_V2_MODEL_RUNNER;
    ``fix``: see _fixes.
    """

    _fields = ("rule", "message", "key", "partners", "note", "uses_arch", "env", "fix")

    def __init__(self, rule: str, message: str, key: str, partners: list | None = None, note: str = "",
                 uses_arch: bool = False, env: bool = False, fix: str | None = None) -> None:
        self.rule = rule
        self.message = message
        self.key = key
        self.partners = [] if partners is None else partners
        self.note = note
        self.uses_arch = uses_arch
        self.env = env
        self.fix = fix


def problems(ctx: Context) -> list[Problem]:
    """Every failing ReplaySSM check of the launch."""
    # Memoised with the reads it made, which every rule of the family then records.
    return memo(ctx.invocation, ("replayssm.problems",), lambda: _evaluate(ctx))


class _State:
    """The derived inputs of the validator, computed once per launch."""

    def __init__(self, ctx: Context) -> None:
        inv = ctx.invocation
        self.ctx = ctx
        self.version = ctx.version
        self.arch = arch_facts(ctx)
        self.arch_name = ctx.architecture if self.arch is not None else None
        self.spec = speculation(inv)
        self.backend = mamba_backend(inv)
        self.mode = mamba_cache_mode(ctx)
        self.kv = kv_connector(inv)
        self.buffer = replayssm_buffer_len(inv)
        self.pp = pipeline_parallel_size(inv)
        self.sr = stochastic_rounding(inv)
        self._v2: Derived | None = None

    def has(self, name: str) -> bool:
        """Whether the release's code has fact ``replayssm.NAME``."""
        return release_has(self.ctx, f"replayssm.{name}")

    @property
    def v2(self) -> Derived:
        if self._v2 is None:
            self._v2 = use_v2_model_runner(self.ctx)
        return self._v2

    @property
    def is_kda(self) -> bool | None:
        if self.arch_name is None:
            return None
        return self.arch_name in KDA_ARCHITECTURES

    def flags(self, *dests: str) -> list:
        out = []
        for d in dests:
            out.extend(written(self.ctx.invocation, d))
        return out

    def add(self, out: list[Problem], rule: str, key: str, *values, **kw) -> None:
        """Problem ``key`` with the release's message (``values`` filling its
        formatted parts); nothing when the release has no such check."""
        message = vllm_message(self.ctx, f"replayssm.{key}", *values)
        if message is not None:
            out.append(Problem(rule, message, key, **kw))


def shape(version: str) -> str | None:
    """Which shape of ``validate_mamba_cached_kernel`` ``version`` has (see
    the module docstring), from the checks the generated table finds in it;
    None: the release has no ReplaySSM validator."""
    def has(name: str) -> bool:
        return validators.has(f"replayssm.{name}", version)

    if not has("arch"):
        return None
    if has("spec"):
        return "independent"
    if has("kimi"):
        return "any-speculation-is-recoverssm"
    return "kda-recoverssm-or-mamba2"


def _evaluate(ctx: Context) -> list[Problem]:
    kind = shape(ctx.version)
    if kind is None or replayssm_flag(ctx.invocation) is None:
        return []
    s = _State(ctx)
    out: list[Problem] = []
    if s.arch is not None and not s.arch.supports_replayssm:
        s.add(out, ARCH, "arch", repr(s.arch_name), uses_arch=True, fix="remove-replayssm")
        return out  # the other checks are about a path this model cannot take
    _SHAPES[kind](s, out)
    return out


# -- the checks, as each shape of the validator orders them --------------------


def _independent_checks(s: _State, out: list[Problem]) -> None:
    """Independent ``if``s (0.27.0-0.28.0)."""
    _mode_all(s, out)
    if s.spec.active:
        s.add(out, SPEC, "spec", partners=list(s.spec.flags), fix="remove-spec")
    _plain_triton(s, out)
    _kv(s, out, kda_exempt=False)


def _any_speculation_is_recoverssm(s: _State, out: list[Problem]) -> None:
    """``use_kda_recoverssm = num_speculative_tokens > 0`` (0.29.0-0.31.0):
    speculative decoding selects KDA RecoverSSM, else mode 'all' is an error
    arm followed, where the release has them, by the FlashInfer arms."""
    if s.spec.active:
        _recoverssm_any_model(s, out)
    elif s.spec.active is False:
        _mode_all(s, out)  # an error arm: the arms below still apply once fixed
        if s.has("triton_fi"):
            _backend_chain(s, out)
    _plain_triton(s, out)
    _kv(s, out, kda_exempt=False)


def _kda_recoverssm_or_mamba2(s: _State, out: list[Problem]) -> None:
    """0.32.0+: KDA RecoverSSM only for Kimi KDA models with speculative
    decoding, Mamba2 speculative decoding on the others."""
    if s.backend.value == "FLASHINFER" and s.buffer.known and s.buffer.value > 16:
        s.add(out, BUFFER, "buf16", partners=s.flags("replayssm_buffer_len") + list(s.backend.flags), fix="buffer:16")
    spec, kda = s.spec.active, s.is_kda
    if spec and kda:
        _recoverssm_kimi(s, out)
    elif spec and kda is False:
        _mamba2_spec(s, out)
    elif spec is False:
        _backend_chain(s, out)
    if s.has("kv_kda_exempt"):
        if spec is None:
            use_kda = None
        elif not spec:
            use_kda = False
        else:
            use_kda = kda
        _kv(s, out, kda_exempt=True, use_kda=use_kda)
    else:
        _kv(s, out, kda_exempt=False)


def _plain_triton(s: _State, out: list[Problem]) -> None:
    """"--use-replayssm requires --mamba-backend triton" (0.27.0-0.29.0),
    after the speculative branch."""
    if s.has("triton") and s.backend.known and s.backend.value != "TRITON":
        s.add(out, BACKEND, "triton", partners=list(s.backend.flags), fix="backend:triton")


def _mode_all(s: _State, out: list[Problem]) -> None:
    if s.mode.value == "all":
        s.add(out, PREFIX, "all", partners=s.flags("mamba_cache_mode", "enable_prefix_caching"), note=s.mode.why,
              uses_arch=s.mode.how != "flag", fix="mode:align")


def _backend_chain(s: _State, out: list[Problem]) -> None:
    """The ``elif`` arms after the speculative branch (0.30.0+ without
    speculative decoding): FlashInfer needs mode 'none'; other backends than
    triton/flashinfer fail; Triton needs Model Runner V1."""
    backend = s.backend.value
    if backend is None:
        return
    if backend == "FLASHINFER":
        if s.mode.value == "align":
            s.add(out, PREFIX, "fi_align",
                  partners=list(s.backend.flags) + s.flags("enable_prefix_caching", "mamba_cache_mode"),
                  note=s.mode.why, uses_arch=True, fix="no-prefix-caching")
        return
    if backend != "TRITON":
        # The backend to suggest is the one that works here: Triton needs
        # Model Runner V1, FlashInfer no prefix caching; neither, no fix.
        fix = "backend:triton" if not s.v2.value else "backend:flashinfer" if s.mode.value != "align" else None
        s.add(out, BACKEND, "triton_fi", partners=list(s.backend.flags), fix=fix)
        return
    if s.v2.value:
        s.add(out, RUNNER, "v1", partners=list(s.backend.flags) + list(s.v2.flags), note=_v2_note(s),
              env=s.v2.how == "env")


def _recoverssm_any_model(s: _State, out: list[Problem]) -> None:
    """0.29.0-0.31.0: any speculative decoding selects KDA RecoverSSM."""
    if s.is_kda is None:
        return
    if not s.is_kda:
        s.add(out, SPEC, "kimi", partners=list(s.spec.flags),
              note=f"vLLM {s.version} runs speculative decoding with --use-replayssm as KDA RecoverSSM",
              uses_arch=True, fix="remove-spec")
        return  # the RecoverSSM requirements below are Kimi's
    _stochastic_rounding(s, out)
    if s.has("rs_modes") and s.mode.known and s.mode.value not in ("none", "align"):
        s.add(out, PREFIX, "rs_modes", partners=s.flags("mamba_cache_mode", "enable_prefix_caching"),
              note=s.mode.why, uses_arch=True, fix="mode:align")
    _recoverssm_runner(s, out)
    _pipeline(s, out)
    _recoverssm_triton(s, out)


def _recoverssm_kimi(s: _State, out: list[Problem]) -> None:
    """0.32.0+: RecoverSSM only for Kimi KDA models with speculative decoding."""
    _stochastic_rounding(s, out)
    _recoverssm_runner(s, out)
    _pipeline(s, out)
    _recoverssm_triton(s, out)


def _recoverssm_runner(s: _State, out: list[Problem]) -> None:
    if s.mode.value == "align" and s.v2.value is False:
        s.add(out, RUNNER, "rs_v2", partners=s.flags("enable_prefix_caching") + list(s.v2.flags),
              note=_join(s.mode.why, s.v2.why), uses_arch=True, env=s.v2.how == "env")


def _recoverssm_triton(s: _State, out: list[Problem]) -> None:
    """"RecoverSSM requires --mamba-backend triton" (0.30.0+)."""
    if s.backend.known and s.backend.value != "TRITON":
        s.add(out, BACKEND, "rs_triton", partners=list(s.backend.flags), uses_arch=True, fix="backend:triton")


def _mamba2_spec(s: _State, out: list[Problem]) -> None:
    """0.32.0+: speculative decoding on Mamba2 (Nemotron-H) models."""
    if s.mode.known and s.mode.value != "none":
        s.add(out, PREFIX, "spec_none",
              partners=s.flags("enable_prefix_caching", "mamba_cache_mode") + list(s.spec.flags),
              note=s.mode.why, uses_arch=True, fix="no-prefix-caching")
    tokens = s.spec.tokens
    if tokens is not None and s.buffer.known:
        query_len = 1 + tokens
        if s.buffer.value < query_len:
            s.add(out, BUFFER, "spec_buf", query_len, s.buffer.value,
                  partners=s.flags("replayssm_buffer_len") + list(s.spec.flags), uses_arch=True,
                  fix=f"buffer:{query_len}")
    if s.backend.known and s.backend.value != "FLASHINFER":
        s.add(out, BACKEND, "spec_fi", partners=list(s.backend.flags) + list(s.spec.flags), uses_arch=True,
              fix="backend:flashinfer")


def _stochastic_rounding(s: _State, out: list[Problem]) -> None:
    if s.sr.value:
        s.add(out, RECOVER, "sr", partners=list(s.sr.flags), uses_arch=True)


def _pipeline(s: _State, out: list[Problem]) -> None:
    if s.pp.known and s.pp.value > 1:
        s.add(out, RECOVER, "pp", partners=list(s.pp.flags), uses_arch=True)


def _kv(s: _State, out: list[Problem], *, kda_exempt: bool, use_kda: bool | None = False) -> None:
    if not s.kv.value:
        return
    if kda_exempt and use_kda is not False:
        return  # 0.33.0 lets KDA RecoverSSM use connectors; unknown: silent
    s.add(out, KV, "kv", partners=list(s.kv.flags), note=s.kv.why)


def _v2_note(s: _State) -> str:
    if s.v2.how == "env":
        return s.v2.why
    if s.v2.how == "default":
        return f"{s.v2.why}; set VLLM_USE_V2_MODEL_RUNNER=0 for V1"
    return s.v2.why


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


_SHAPES = {
    "independent": _independent_checks,
    "any-speculation-is-recoverssm": _any_speculation_is_recoverssm,
    "kda-recoverssm-or-mamba2": _kda_recoverssm_or_mamba2,
}


# -- findings --------------------------------------------------------------------


def _partner_label(flag: "Flag") -> str:
    value = flag.value_text()
    name = flag.written if flag.source == "cli" else f"{flag.written}:"
    if value is None or len(value) > 60:
        return f"set by {name}"
    return f"set by {name} {value}"


def _fixes(ctx: Context, p: Problem) -> list[Fix]:
    kind = p.fix
    if kind is None:
        return []
    inv = ctx.invocation
    out: list[Fix] = []
    if kind == "remove-replayssm":
        edits = remove_flags(ctx.text_of, written(inv, "use_replayssm"), ctx.path)
        if edits:
            out.append(Fix("Remove --use-replayssm", edits, applicability=Applicability.SAFE, preferred=True))
    elif kind == "remove-spec":
        flags = [f for d in ("speculative_config", "spec_method", "spec_model", "spec_tokens") for f in written(inv, d)]
        edits = remove_flags(ctx.text_of, flags, ctx.path)
        if edits:
            names = sorted({f.canonical for f in flags if f.canonical}, key=lambda n: (n != "--speculative-config", n))
            out.append(Fix(f"Remove {', '.join(names)} (speculative decoding)", edits,
                           applicability=Applicability.SAFE, preferred=True))
    elif kind.startswith(("backend:", "mode:", "buffer:")):
        dest = {"backend": "mamba_backend", "mode": "mamba_cache_mode", "buffer": "replayssm_buffer_len"}[kind.split(":")[0]]
        new = kind.split(":", 1)[1]
        flags = written(inv, dest)
        edits = set_value(inv, ctx.text_of, ctx.path, flags[0], new) if len(flags) == 1 else None
        if edits:
            # A new value changes what the launch runs: offered, never applied for you.
            out.append(Fix(f"Use {flags[0].canonical} {new}", edits, applicability=Applicability.UNSAFE, preferred=True))
    elif kind == "no-prefix-caching":
        flags = written(inv, "enable_prefix_caching")
        if len(flags) == 1 and not flags[0].negated and flags[0].option is not None:
            f = flags[0]
            negative = [s for s in f.option.negative if s.startswith("--disable-")] or list(f.option.negative)
            if negative:
                out.append(Fix(f"Use {negative[0]}", rename_flag(f, negative[0], path_of(ctx, f)),
                               applicability=Applicability.UNSAFE, preferred=True))
    return out


class ReplaySSMRule(Rule):
    """Base of the family: findings are the ``problems`` of one aspect."""

    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.27.0"
    anchor = "--use-replayssm"
    reviewed = ("0.25.0", "0.33.0")

    def check(self, ctx: Context) -> Iterable[Finding]:
        found = [p for p in problems(ctx) if p.rule == self.name]
        if not found:
            return
        anchor = replayssm_flag(ctx.invocation)
        model = ctx.model
        inferred = inferred_architecture(ctx) if model is not None and model.inferred else ""
        for p in found:
            message = p.message
            clauses = [p.note] if p.note else []
            severity = None
            if p.uses_arch and inferred:
                severity = self.severity.lower()
                clauses.append(inferred)
            if clauses:
                message = f"{message} ({'; '.join(clauses)})"
            yield Finding(
                anchor.name_span,
                message,
                flag="--use-replayssm",
                severity=severity,
                related=self._related(ctx, p),
                fixes=_fixes(ctx, p),
                vllm_message=p.message,
                data={"vllm_source": vllm_source(ctx, f"replayssm.{p.key}")},
                path=path_of(ctx, anchor),
            )

    def _related(self, ctx: Context, p: Problem) -> list[Related]:
        out: list[Related] = []
        seen = set()
        for f in p.partners:
            key = (id(f.word), f.name_span)
            if key in seen:
                continue
            seen.add(key)
            out.append(Related(path_of(ctx, f), f.span, _partner_label(f)))
        if p.env:
            var = ctx.invocation.env.get(V2_ENV)
            if var is not None and var.span is not None:
                out.append(Related(ctx.path, var.span, f"{V2_ENV}={var.value}"))
        if p.rule == ARCH:
            inv = ctx.invocation
            model = ctx.model
            if inv.model is not None and model is not None:
                path = inv.model.path or ctx.path
                out.append(Related(path, inv.model.span, f"architecture {model.architecture} ({model.detail})"))
        return out
