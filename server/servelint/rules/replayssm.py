"""``--use-replayssm``: the checks of ``VllmConfig.validate_mamba_cached_kernel``.

vLLM checks a ReplaySSM launch in one validator (vllm/config/vllm.py,
``validate_mamba_cached_kernel``) that stops at its first error.  Its text
changed in almost every release since the flag appeared in 0.27.0; there are
five variants:

* A, 0.27.0-0.28.0: architecture, Mamba cache mode 'all', speculative
  decoding, backend other than triton, KV connector (independent ``if``s);
* B, 0.29.0: speculative decoding becomes "RecoverSSM", only for Kimi KDA
  models; 'all' is checked only without it;
* C, 0.30.0-0.31.0: FlashInfer becomes a backend (without prefix caching),
  Triton needs Model Runner V1;
* D, 0.32.0: non-Kimi speculative decoding is possible with FlashInfer
  (prefix caching off, buffer >= 1 + k); buffer <= 16 for FlashInfer;
* E, 0.33.0: D with reworded prefix-caching messages; Kimi RecoverSSM may
  use KV connectors.

``problems`` walks the release's variant over what vLLM derives from the
launch (``vllm_state``) and returns *every* check that fails, not only the
first: each is a problem that would still stop vLLM once the ones before it
were fixed.  Checks are evaluated on the launch as written; two exceptions,
because their fix changes which checks apply at all: an unsupported
architecture is reported alone, and a non-Kimi model rejected by RecoverSSM
(0.29.0-0.31.0) skips the rest of the RecoverSSM checks.  A check whose
inputs servelint cannot know (an unresolved architecture, a value set at run
time) is skipped.

One rule class per aspect reports the problems of its kind, each anchored on
``--use-replayssm`` (in a ``--config`` file, the ``use-replayssm`` key),
with the message vLLM raises in that release.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..diagnostics import Applicability, Category, Fix, Related, Severity
from ..edits import remove_flags, rename_flag, set_value
from ..knowledge.validators import VllmCheck
from . import vllm_state as st
from ..derive.view import memo
from .base import Context, Finding, Rule, Value, version_key, vllm_source

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag

KDA_ARCHITECTURES = ("KimiLinearForCausalLM", "KimiK3ForConditionalGeneration")

# The raises of ``validate_mamba_cached_kernel`` (vllm/config/vllm.py) this
# family mirrors, by Problem key; where each is, per release, is generated
# (knowledge/data/validators.json).
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


# Rule names, one per aspect.
ARCH = "replayssm-architecture"
SPEC = "replayssm-speculative-decoding"
PREFIX = "replayssm-prefix-caching"
BACKEND = "replayssm-mamba-backend"
BUFFER = "replayssm-buffer-length"
RUNNER = "replayssm-model-runner"
KV = "replayssm-kv-connector"
RECOVER = "replayssm-recoverssm"


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


def _variant(version: str) -> str | None:
    v = version_key(version)
    if v < (0, 27, 0):
        return None
    if v <= (0, 28, 0):
        return "A"
    if v <= (0, 29, 0):
        return "B"
    if v <= (0, 31, 0):
        return "C"
    if v <= (0, 32, 0):
        return "D"
    return "E"


def problems(ctx: Context) -> list[Problem]:
    """Every failing ReplaySSM check of the launch (cached on the context)."""
    # Memoised with the reads it made, which every rule of the family then records.
    return memo(ctx.invocation, ("replayssm.problems",), lambda: _evaluate(ctx))


class _State:
    """The derived inputs of the validator, computed once per launch."""

    def __init__(self, ctx: Context) -> None:
        inv = ctx.invocation
        self.ctx = ctx
        self.version = ctx.version
        self.arch = st.arch_facts(ctx)
        self.arch_name = ctx.architecture if self.arch is not None else None
        self.spec = st.speculation(inv)
        self.backend = st.mamba_backend(inv)
        self.mode = st.mamba_cache_mode(ctx)
        self.kv = st.kv_connector(inv)
        self.buffer = st.replayssm_buffer_len(inv)
        self.pp = st.pipeline_parallel_size(inv)
        self.sr = st.stochastic_rounding(inv)
        self._v2: st.Derived | None = None

    @property
    def v2(self) -> st.Derived:
        if self._v2 is None:
            self._v2 = st.use_v2_model_runner(self.ctx)
        return self._v2

    @property
    def is_kda(self) -> bool | None:
        if self.arch_name is None:
            return None
        return self.arch_name in KDA_ARCHITECTURES

    def flags(self, *dests: str) -> list:
        out = []
        for d in dests:
            out.extend(st.written(self.ctx.invocation, d))
        return out


def _evaluate(ctx: Context) -> list[Problem]:
    variant = _variant(ctx.version)
    if variant is None or st.replayssm_flag(ctx.invocation) is None:
        return []
    s = _State(ctx)
    out: list[Problem] = []
    if s.arch is not None and not s.arch.supports_replayssm:
        out.append(_arch_problem(s))
        return out  # the other checks are about a path this model cannot take
    if variant == "A":
        _variant_a(s, out)
    elif variant == "B":
        _variant_b(s, out)
    elif variant == "C":
        _variant_c(s, out)
    else:
        _variant_de(s, out, variant)
    return out


# -- the checks, as each release orders them ---------------------------------


def _arch_problem(s: _State) -> Problem:
    name = s.arch_name
    if _variant(s.version) == "A":
        msg = f"--use-replayssm is only supported for Nemotron-H models (got architecture {name!r})"
    else:
        msg = f"--use-replayssm is not supported for architecture {name!r}"
    return Problem(ARCH, msg, "arch", uses_arch=True, fix="remove-replayssm")


def _variant_a(s: _State, out: list[Problem]) -> None:
    """0.27.0-0.28.0 (vllm/config/vllm.py 0.27.1:2338-2366, 0.28.0:2558-2586)."""
    _mode_all(s, out)
    if s.spec.active:
        out.append(Problem(SPEC, "--use-replayssm does not support speculative decoding", "spec",
                           list(s.spec.flags), fix="remove-spec"))
    if s.backend.known and s.backend.value != "TRITON":
        out.append(Problem(BACKEND, "--use-replayssm requires --mamba-backend triton", "triton",
                           list(s.backend.flags), fix="backend:triton"))
    _kv(s, out, kda_exempt=False)


def _variant_b(s: _State, out: list[Problem]) -> None:
    """0.29.0 (vllm/config/vllm.py:2850-2903): speculative decoding means RecoverSSM."""
    if s.spec.active:
        _recoverssm_0_29_to_0_31(s, out, triton_check=False)
    elif s.spec.active is False:
        _mode_all(s, out)
    if s.backend.known and s.backend.value != "TRITON":
        out.append(Problem(BACKEND, "--use-replayssm requires --mamba-backend triton", "triton",
                           list(s.backend.flags), fix="backend:triton"))
    _kv(s, out, kda_exempt=False)


def _variant_c(s: _State, out: list[Problem]) -> None:
    """0.30.0-0.31.0 (vllm/config/vllm.py 0.30.0:3211-3279, 0.31.0:3447-3515)."""
    if s.spec.active:
        _recoverssm_0_29_to_0_31(s, out, triton_check=True)
    elif s.spec.active is False:
        _mode_all(s, out)  # an error arm: the arms below still apply once fixed
        _backend_chain(s, out, "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none")
    _kv(s, out, kda_exempt=False)


def _variant_de(s: _State, out: list[Problem], variant: str) -> None:
    """0.32.0 (vllm/config/vllm.py:3319-3413) and 0.33.0 (:3455-3553)."""
    if s.backend.value == "FLASHINFER" and s.buffer.known and s.buffer.value > 16:
        out.append(Problem(BUFFER, "FlashInfer ReplaySSM requires --replayssm-buffer-len <= 16", "buf16",
                           s.flags("replayssm_buffer_len") + list(s.backend.flags), fix="buffer:16"))
    spec, kda = s.spec.active, s.is_kda
    if spec and kda:
        _recoverssm_kimi(s, out, variant)
    elif spec and kda is False:
        _mamba2_spec(s, out, variant)
    elif spec is False:
        if variant == "D":
            fi_align = "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none"
        else:
            fi_align = "FlashInfer ReplaySSM does not support prefix caching yet; use --disable-prefix-caching"
        _backend_chain(s, out, fi_align)
    if variant == "E":
        if spec is None:
            use_kda = None
        elif not spec:
            use_kda = False
        else:
            use_kda = kda
        _kv(s, out, kda_exempt=True, use_kda=use_kda)
    else:
        _kv(s, out, kda_exempt=False)


def _mode_all(s: _State, out: list[Problem]) -> None:
    if s.mode.value == "all":
        out.append(Problem(
            PREFIX,
            "--use-replayssm supports prefix caching only in align mode; pass --mamba-cache-mode align",
            "all", s.flags("mamba_cache_mode", "enable_prefix_caching"), note=s.mode.why,
            uses_arch=s.mode.how != "flag", fix="mode:align",
        ))


def _backend_chain(s: _State, out: list[Problem], fi_align: str) -> None:
    """The ``elif`` arms after the speculative branch (0.30.0+ without
    speculative decoding): FlashInfer needs mode 'none'; other backends than
    triton/flashinfer fail; Triton needs Model Runner V1."""
    backend = s.backend.value
    if backend is None:
        return
    if backend == "FLASHINFER":
        if s.mode.value == "align":
            out.append(Problem(PREFIX, fi_align, "fi_align",
                               list(s.backend.flags) + s.flags("enable_prefix_caching", "mamba_cache_mode"),
                               note=s.mode.why, uses_arch=True, fix="no-prefix-caching"))
        return
    if backend != "TRITON":
        # The backend to suggest is the one that works here: Triton needs
        # Model Runner V1, FlashInfer no prefix caching; neither, no fix.
        fix = "backend:triton" if not s.v2.value else "backend:flashinfer" if s.mode.value != "align" else None
        out.append(Problem(BACKEND, "--use-replayssm requires --mamba-backend triton or flashinfer", "triton_fi",
                           list(s.backend.flags), fix=fix))
        return
    if s.v2.value:
        out.append(Problem(RUNNER,
                           "Triton ReplaySSM requires Model Runner V1; use --mamba-backend flashinfer or Model Runner V1",
                           "v1", list(s.backend.flags) + list(s.v2.flags), note=_v2_note(s),
                           env=s.v2.how == "env"))


def _recoverssm_0_29_to_0_31(s: _State, out: list[Problem], *, triton_check: bool) -> None:
    """0.29.0-0.31.0: any speculative decoding selects KDA RecoverSSM."""
    if s.is_kda is None:
        return
    if not s.is_kda:
        out.append(Problem(SPEC, "RecoverSSM is only supported for Kimi-K3 KDA", "kimi", list(s.spec.flags),
                           note=f"vLLM {s.version} runs speculative decoding with --use-replayssm as KDA RecoverSSM",
                           uses_arch=True, fix="remove-spec"))
        return  # the RecoverSSM requirements below are Kimi's
    _stochastic_rounding(s, out)
    if s.mode.known and s.mode.value not in ("none", "align"):
        out.append(Problem(PREFIX, "RecoverSSM supports only none and align Mamba cache modes", "rs_modes",
                           s.flags("mamba_cache_mode", "enable_prefix_caching"), note=s.mode.why,
                           uses_arch=True, fix="mode:align"))
    if s.mode.value == "align" and s.v2.value is False:
        out.append(Problem(RUNNER, "RecoverSSM with align mode requires VLLM_USE_V2_MODEL_RUNNER=1", "rs_v2",
                           s.flags("enable_prefix_caching") + list(s.v2.flags),
                           note=_join(s.mode.why, s.v2.why), uses_arch=True, env=s.v2.how == "env"))
    _pipeline(s, out)
    if triton_check and s.backend.known and s.backend.value != "TRITON":
        out.append(Problem(BACKEND, "RecoverSSM requires --mamba-backend triton", "rs_triton",
                           list(s.backend.flags), uses_arch=True, fix="backend:triton"))


def _recoverssm_kimi(s: _State, out: list[Problem], variant: str) -> None:
    """0.32.0+: RecoverSSM only for Kimi KDA models with speculative decoding."""
    _stochastic_rounding(s, out)
    if s.mode.value == "align" and s.v2.value is False:
        if variant == "D":
            msg = "RecoverSSM with align mode requires VLLM_USE_V2_MODEL_RUNNER=1"
        else:
            msg = "RecoverSSM with prefix caching requires VLLM_USE_V2_MODEL_RUNNER=1"
        out.append(Problem(RUNNER, msg, "rs_v2", s.flags("enable_prefix_caching") + list(s.v2.flags),
                           note=_join(s.mode.why, s.v2.why), uses_arch=True, env=s.v2.how == "env"))
    _pipeline(s, out)
    if s.backend.known and s.backend.value != "TRITON":
        out.append(Problem(BACKEND, "RecoverSSM requires --mamba-backend triton", "rs_triton",
                           list(s.backend.flags), uses_arch=True, fix="backend:triton"))


def _mamba2_spec(s: _State, out: list[Problem], variant: str) -> None:
    """0.32.0+: speculative decoding on Mamba2 (Nemotron-H) models."""
    if s.mode.known and s.mode.value != "none":
        if variant == "D":
            msg = "FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none"
        else:
            msg = "FlashInfer ReplaySSM speculative decoding does not support prefix caching; use --disable-prefix-caching"
        out.append(Problem(PREFIX, msg, "spec_none", s.flags("enable_prefix_caching", "mamba_cache_mode") + list(s.spec.flags),
                           note=s.mode.why, uses_arch=True, fix="no-prefix-caching"))
    tokens = s.spec.tokens
    if tokens is not None and s.buffer.known:
        query_len = 1 + tokens
        if s.buffer.value < query_len:
            out.append(Problem(
                BUFFER,
                "FlashInfer ReplaySSM speculative decoding requires --replayssm-buffer-len >= 1 + "
                f"num_speculative_tokens ({query_len}); got {s.buffer.value}",
                "spec_buf", s.flags("replayssm_buffer_len") + list(s.spec.flags), uses_arch=True,
                fix=f"buffer:{query_len}",
            ))
    if s.backend.known and s.backend.value != "FLASHINFER":
        out.append(Problem(BACKEND, "Mamba2 ReplaySSM speculative decoding requires --mamba-backend flashinfer",
                           "spec_fi", list(s.backend.flags) + list(s.spec.flags), uses_arch=True,
                           fix="backend:flashinfer"))


def _stochastic_rounding(s: _State, out: list[Problem]) -> None:
    if s.sr.value:
        out.append(Problem(
            RECOVER,
            "RecoverSSM supports bfloat16/float32 SSM state caches, not --enable-mamba-cache-stochastic-rounding, "
            "which requires an explicit float16 cache",
            "sr", list(s.sr.flags), uses_arch=True,
        ))


def _pipeline(s: _State, out: list[Problem]) -> None:
    if s.pp.known and s.pp.value > 1:
        out.append(Problem(RECOVER, "RecoverSSM currently requires pipeline_parallel_size=1", "pp",
                           list(s.pp.flags), uses_arch=True))


def _kv(s: _State, out: list[Problem], *, kda_exempt: bool, use_kda: bool | None = False) -> None:
    if not s.kv.value:
        return
    if kda_exempt and use_kda is not False:
        return  # 0.33.0 lets KDA RecoverSSM use connectors; unknown: silent
    out.append(Problem(KV, "--use-replayssm is incompatible with KV connectors (P/D disaggregation, KV cache offload)",
                       "kv", list(s.kv.flags), note=s.kv.why))


def _v2_note(s: _State) -> str:
    if s.v2.how == "env":
        return s.v2.why
    if s.v2.how == "default":
        return f"{s.v2.why}; set VLLM_USE_V2_MODEL_RUNNER=0 for V1"
    return s.v2.why


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------


def _path_of(ctx: Context, flag: "Flag") -> str:
    return (flag.word.path if flag.word is not None else None) or ctx.path


def _partner_label(flag: "Flag") -> str:
    value = flag.value_text()
    name = flag.written if flag.source == "cli" else f"{flag.written}:"
    if value is None or len(value) > 60:
        return f"set by {name}"
    return f"set by {name} {value}"


def _fixes(ctx: Context, anchor: "Flag", p: Problem) -> list[Fix]:
    kind = p.fix
    if kind is None:
        return []
    inv = ctx.invocation
    out: list[Fix] = []
    if kind == "remove-replayssm":
        edits = remove_flags(ctx.text_of, st.written(inv, "use_replayssm"), ctx.path)
        if edits:
            out.append(Fix("Remove --use-replayssm", edits, applicability=Applicability.SAFE, preferred=True))
    elif kind == "remove-spec":
        flags = [f for d in ("speculative_config", "spec_method", "spec_model", "spec_tokens") for f in st.written(inv, d)]
        edits = remove_flags(ctx.text_of, flags, ctx.path)
        if edits:
            names = sorted({f.canonical for f in flags if f.canonical}, key=lambda n: (n != "--speculative-config", n))
            out.append(Fix(f"Remove {', '.join(names)} (speculative decoding)", edits, applicability=Applicability.SAFE, preferred=True))
    elif kind.startswith(("backend:", "mode:", "buffer:")):
        dest = {"backend": "mamba_backend", "mode": "mamba_cache_mode", "buffer": "replayssm_buffer_len"}[kind.split(":")[0]]
        new = kind.split(":", 1)[1]
        flags = st.written(inv, dest)
        edits = set_value(inv, ctx.text_of, ctx.path, flags[0], new) if len(flags) == 1 else None
        if edits:
            # A new value changes what the launch runs: offered, never applied for you.
            out.append(Fix(f"Use {flags[0].canonical} {new}", edits, applicability=Applicability.UNSAFE, preferred=True))
    elif kind == "no-prefix-caching":
        flags = st.written(inv, "enable_prefix_caching")
        if len(flags) == 1 and not flags[0].negated and flags[0].option is not None:
            f = flags[0]
            negative = [s for s in f.option.negative if s.startswith("--disable-")] or list(f.option.negative)
            if negative:
                out.append(Fix(f"Use {negative[0]}", rename_flag(f, negative[0], _path_of(ctx, f)),
                               applicability=Applicability.UNSAFE, preferred=True))
    return out


class _ReplaySSMRule(Rule):
    """Base of the family: findings are the ``problems`` of one aspect."""

    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.27.0"
    anchor = "--use-replayssm"

    def check(self, ctx: Context) -> Iterable[Finding]:
        found = [p for p in problems(ctx) if p.rule == self.name]
        if not found:
            return
        anchor = st.replayssm_flag(ctx.invocation)
        model = ctx.model
        inferred = model is not None and model.inferred
        for p in found:
            message = p.message
            clauses = [p.note] if p.note else []
            severity = None
            if p.uses_arch and inferred:
                severity = self.severity.lower()
                clauses.append(f"architecture {model.architecture} inferred from {model.detail.removeprefix('inferred from ')}")
            if clauses:
                message = f"{message} ({'; '.join(clauses)})"
            yield Finding(
                anchor.name_span,
                message,
                flag="--use-replayssm",
                severity=severity,
                related=self._related(ctx, p),
                fixes=_fixes(ctx, anchor, p),
                vllm_message=p.message,
                data={"vllm_source": vllm_source(ctx, f"replayssm.{p.key}")},
                path=_path_of(ctx, anchor),
            )

    def _related(self, ctx: Context, p: Problem) -> list[Related]:
        out: list[Related] = []
        seen = set()
        for f in p.partners:
            key = (id(f.word), f.name_span)
            if key in seen:
                continue
            seen.add(key)
            out.append(Related(_path_of(ctx, f), f.span, _partner_label(f)))
        if p.env:
            var = ctx.invocation.env.get(st.V2_ENV)
            if var is not None and var.span is not None:
                out.append(Related(ctx.path, var.span, f"{st.V2_ENV}={var.value}"))
        if p.rule == ARCH:
            inv = ctx.invocation
            model = ctx.model
            if inv.model is not None and model is not None:
                path = inv.model.path or ctx.path
                out.append(Related(path, inv.model.span, f"architecture {model.architecture} ({model.detail})"))
        return out


_BASE_READS = frozenset({"use_replayssm", "model", "hf_overrides"})
_SPEC_READS = frozenset({"speculative_config", "spec_method", "spec_model", "spec_tokens"})
_PC_READS = frozenset({"enable_prefix_caching", "mamba_cache_mode"})
_V2_READS = frozenset({st.V2_ENV, "tensor_parallel_size", "compilation_config"}) | frozenset(st._V2_OPAQUE_DESTS)


class ReplaySSMArchitecture(_ReplaySSMRule):
    """`--use-replayssm` on a model whose architecture does not support it.

    ## What it does
    Reports `--use-replayssm` when the model's architecture does not
    implement vLLM's `SupportsReplaySSM` interface: in 0.27.0-0.33.0 only
    Nemotron-H (`NemotronHForCausalLM`, `NemotronHPuzzleForCausalLM`) and
    the Kimi KDA models (`KimiLinearForCausalLM`,
    `KimiK3ForConditionalGeneration`) do. Mamba, Mamba2, Falcon-H1, Jamba,
    Zamba2, Granite-4 hybrids, the Nemotron-H VL models and every
    attention-only model are rejected. The architecture is read from the
    model's `config.json` (local directory or Hugging Face cache), else from
    servelint's table of known ids; when it is only inferred from the model's
    name, the diagnostic is a warning and says so. With this problem present
    servelint reports no other ReplaySSM problem: they concern a path this
    model cannot take.

    ## Why
    ReplaySSM appends a 3-tensor ring to the Mamba state; only models that
    opt in build consistent state shapes, so vLLM refuses the rest while
    building its config, after the model download.

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.7b --use-replayssm
    ```

    ## Fix
    Remove `--use-replayssm` (the fix), or serve a Nemotron-H model.


    ## Fix safety
    Safe: removing a conflicting flag; the launch then runs without ReplaySSM,
    as any release that rejects it would require.
    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`, vllm/config/vllm.py:
    "--use-replayssm is only supported for Nemotron-H models (got
    architecture 'X')" at 0.27.0/0.27.1:2346, 0.28.0:2566; "--use-replayssm is
    not supported for architecture 'X'" at 0.29.0:2858, 0.30.0:3219,
    0.31.0:3455, 0.32.0:3341, 0.33.0:3477. `ModelConfig.supports_replayssm`
    is the registry's `_ModelInfo.supports_replayssm`
    (model_executor/models/interfaces.py `SupportsReplaySSM`).
    """

    code = "SL201"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("arch",))
    reviewed = ("0.25.0", "0.33.0")
    name = ARCH
    reads = _BASE_READS


class ReplaySSMSpeculativeDecoding(_ReplaySSMRule):
    """`--use-replayssm` with speculative decoding the release rejects.

    ## What it does
    Reports `--use-replayssm` combined with speculative decoding
    (`--speculative-config`/`-sc`, its dotted keys, or `--spec-method`,
    `--spec-model`, `--spec-tokens`) where vLLM refuses it:

    * 0.27.0-0.28.0: always ("--use-replayssm does not support speculative
      decoding");
    * 0.29.0-0.31.0: speculative decoding selects KDA RecoverSSM, which only
      Kimi KDA models have ("RecoverSSM is only supported for Kimi-K3 KDA");
    * 0.32.0+: allowed for Nemotron-H with `--mamba-backend flashinfer`,
      prefix caching off and a large enough `--replayssm-buffer-len`; those
      requirements are reported by `replayssm-mamba-backend`,
      `replayssm-prefix-caching` and `replayssm-buffer-length`.

    ## Why
    The replayed SSM ring cannot be kept consistent when draft tokens are
    verified and rolled back, so vLLM rejects the combination while building
    its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm \\
      --speculative-config '{"method":"ngram","num_speculative_tokens":3}'
    ```

    ## Fix
    Remove the speculative decoding flags (the fix), or drop `--use-replayssm`.


    ## Fix safety
    Safe: removing the conflicting speculative-decoding flags; the launch then
    runs without speculative decoding.
    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: 0.27.0/0.27.1:2356,
    0.28.0:2576 (`num_speculative_tokens > 0`); "RecoverSSM is only supported
    for Kimi-K3 KDA" 0.29.0:2867, 0.30.0:3228, 0.31.0:3464.
    `num_speculative_tokens` is `speculative_config.num_speculative_tokens`
    (config/vllm.py 0.28.0:574, 0.33.0:612).
    """

    code = "SL202"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("spec", "kimi"))
    reviewed = ("0.25.0", "0.33.0")
    name = SPEC
    reads = _BASE_READS | _SPEC_READS


class ReplaySSMPrefixCaching(_ReplaySSMRule):
    """`--use-replayssm` with a prefix-caching mode the release rejects.

    ## What it does
    Works out the Mamba cache mode vLLM derives (from prefix caching, whose
    default depends on the release and on whether the model is hybrid, and
    from `--mamba-cache-mode`) and reports:

    * 0.27.0-0.31.0, no speculative decoding: mode `all` ("supports prefix
      caching only in align mode"). In 0.27.x prefix caching is off by
      default for hybrid models but `--enable-prefix-caching` selects `all`;
      from 0.28.0 it is on by default and `all` must be asked for;
    * 0.29.0-0.31.0, Kimi RecoverSSM: modes other than `none`/`align`;
    * 0.30.0+, `--mamba-backend flashinfer`: prefix caching on (mode
      `align`), which FlashInfer ReplaySSM does not support yet;
    * 0.32.0+, Nemotron-H speculative decoding: prefix caching on.

    ## Why
    Prefix caching is on by default for hybrid models since 0.28.0, so a
    launch that only adds `--mamba-backend flashinfer` or a speculative
    config fails unless it also turns prefix caching off.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --mamba-backend flashinfer
    ```

    ## Fix
    `--no-enable-prefix-caching` (`--disable-prefix-caching` in 0.33.0) for
    FlashInfer and speculative decoding; `--mamba-cache-mode align` for `all`.


    ## Fix safety
    Unsafe: a new cache mode or turning prefix caching off changes how the
    launch runs; offered, never applied for you.
    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: mode `all`
    0.27.0/0.27.1:2351, 0.28.0:2571, 0.29.0:2890, 0.30.0:3253, 0.31.0:3489;
    RecoverSSM modes 0.29.0:2875, 0.30.0:3236, 0.31.0:3472; FlashInfer
    0.30.0:3259, 0.31.0:3495, 0.32.0:3393, 0.33.0:3529; speculative decoding
    0.32.0:3374, 0.33.0:3510. Mode derivation: `MambaModelConfig`
    (model_executor/models/config.py 0.27.1:600, 0.28.0:589, 0.33.0:750);
    prefix-caching default: engine/arg_utils.py 0.27.1:2604, 0.28.0:2650,
    0.33.0:3045.
    """

    code = "SL203"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("all", "fi_align", "rs_modes", "spec_none"))
    reviewed = ("0.25.0", "0.33.0")
    name = PREFIX
    reads = _BASE_READS | _SPEC_READS | _PC_READS | {"mamba_backend"}


class ReplaySSMMambaBackend(_ReplaySSMRule):
    """`--use-replayssm` with a Mamba backend the release rejects.

    ## What it does
    Reports the `--mamba-backend` (case-insensitive: vLLM upper-cases it)
    that does not fit ReplaySSM:

    * 0.27.0-0.29.0: anything but `triton`;
    * 0.30.0+: anything but `triton` or `flashinfer` (so `cpu`);
    * Kimi RecoverSSM (speculative decoding, 0.30.0+): anything but `triton`;
    * 0.32.0+, Nemotron-H speculative decoding: anything but `flashinfer`
      (including the default, triton).

    ## Why
    The ReplaySSM kernels exist only for these backends; vLLM stops while
    building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --mamba-backend cpu
    ```

    ## Fix
    Use the backend the message names (the fix changes the value).


    ## Fix safety
    Unsafe: a different Mamba backend changes what the launch runs; offered,
    never applied for you.
    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: "requires
    --mamba-backend triton" 0.27.0/0.27.1:2358, 0.28.0:2578, 0.29.0:2895;
    "triton or flashinfer" 0.30.0:3264, 0.31.0:3500, 0.32.0:3398,
    0.33.0:3534; RecoverSSM 0.30.0:3251, 0.31.0:3487, 0.32.0:3371,
    0.33.0:3507; Mamba2 speculative decoding 0.32.0:3387, 0.33.0:3523. The
    flag is converted by `MambaBackendEnum[value.upper()]`
    (engine/arg_utils.py 0.28.0:2402, 0.33.0:2773).
    """

    code = "SL204"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("triton", "triton_fi", "rs_triton", "spec_fi"))
    reviewed = ("0.25.0", "0.33.0")
    name = BACKEND
    reads = _BASE_READS | _SPEC_READS | {"mamba_backend"}


class ReplaySSMBufferLength(_ReplaySSMRule):
    """`--replayssm-buffer-len` out of the range FlashInfer ReplaySSM accepts.

    ## What it does
    From 0.32.0: with `--mamba-backend flashinfer` the buffer length must be
    at most 16; with Nemotron-H speculative decoding it must be at least
    1 + `num_speculative_tokens` (the default is 16).

    ## Why
    The FlashInfer kernel holds B + T rows (T the verification length);
    vLLM rejects lengths it cannot serve while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --no-enable-prefix-caching \\
      --mamba-backend flashinfer --replayssm-buffer-len 32
    ```

    ## Fix
    Set `--replayssm-buffer-len` in range (the fix sets 16, or 1 + k).


    ## Fix safety
    Unsafe: a new buffer length changes what the launch runs; offered, never
    applied for you.
    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: "<= 16"
    0.32.0:3349, 0.33.0:3485; ">= 1 + num_speculative_tokens" 0.32.0:3380,
    0.33.0:3516.
    """

    code = "SL205"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("buf16", "spec_buf"))
    reviewed = ("0.25.0", "0.33.0")
    name = BUFFER
    since = "0.32.0"
    reads = _BASE_READS | _SPEC_READS | {"replayssm_buffer_len", "mamba_backend"}


class ReplaySSMModelRunner(_ReplaySSMRule):
    """`--use-replayssm` with the wrong Model Runner (V1/V2).

    ## What it does
    Works out which Model Runner vLLM picks (`VLLM_USE_V2_MODEL_RUNNER` from
    the launch's environment: shell prefix or export, Kubernetes `env`,
    compose `environment`; else the default on the declared target, V2 on
    CUDA unless a feature V2 lacks applies) and reports:

    * 0.30.0+: Triton ReplaySSM (the default backend) under Model Runner
      V2. On a CUDA GPU this is the default, so a plain
      `--use-replayssm` launch fails there;
    * 0.29.0+, Kimi RecoverSSM with prefix caching under V1.

    ## Why
    The Triton ReplaySSM path exists only in Model Runner V1 and RecoverSSM's
    align mode only in V2; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm    # vLLM 0.33.0 on a GPU
    ```

    ## Fix
    Run with `VLLM_USE_V2_MODEL_RUNNER=0`, or use `--mamba-backend
    flashinfer` with prefix caching off.

    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: "Triton ReplaySSM
    requires Model Runner V1" 0.30.0:3268, 0.31.0:3504, 0.32.0:3402,
    0.33.0:3538; "RecoverSSM with align mode requires
    VLLM_USE_V2_MODEL_RUNNER=1" 0.29.0:2882, 0.30.0:3243, 0.31.0:3479,
    0.32.0:3363; "RecoverSSM with prefix caching requires ..." 0.33.0:3499.
    Runner choice: `VllmConfig.use_v2_model_runner` (0.29.0:645, 0.30.0:675,
    0.31.0:701, 0.32.0:703, 0.33.0:731) and
    `_get_v2_model_runner_unsupported_features`.
    """

    code = "SL206"
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("v1", "rs_v2"))
    reviewed = ("0.25.0", "0.33.0")
    name = RUNNER
    since = "0.29.0"
    reads = _BASE_READS | _SPEC_READS | _PC_READS | _V2_READS | {"mamba_backend"}


class ReplaySSMKVConnector(_ReplaySSMRule):
    """`--use-replayssm` with a KV connector (P/D disaggregation, KV offload).

    ## What it does
    Reports `--use-replayssm` together with a KV connector: a
    `--kv-transfer-config` naming a `kv_connector` with a role (producer,
    consumer or both), or `--kv-offloading-size`, which makes vLLM create an
    offloading connector with role `kv_both`. From 0.33.0, Kimi RecoverSSM
    (speculative decoding on a KDA model) may use connectors.

    ## Why
    KV connectors transfer the Mamba state as a stock page, which the
    ReplaySSM ring does not fit; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --kv-offloading-size 8
    ```

    ## Fix
    Drop either the connector or `--use-replayssm`.

    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: 0.27.0/0.27.1:2363,
    0.28.0:2583, 0.29.0:2900, 0.30.0:3276, 0.31.0:3512, 0.32.0:3410,
    0.33.0:3550. `--kv-offloading-size` → connector:
    `_post_init_kv_transfer_config` (0.28.0:948, 0.33.0:1151).
    """

    code = "SL207"
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("kv",))
    reviewed = ("0.25.0", "0.33.0")
    name = KV
    reads = _BASE_READS | _SPEC_READS | {"kv_transfer_config", "kv_offloading_size", "kv_offloading_backend"}


class ReplaySSMRecoverSSM(_ReplaySSMRule):
    """Kimi RecoverSSM (`--use-replayssm` with speculative decoding) requirements.

    ## What it does
    From 0.29.0, `--use-replayssm` with speculative decoding on a Kimi KDA
    model selects RecoverSSM, which rejects
    `--enable-mamba-cache-stochastic-rounding` and pipeline parallelism
    (`-pp` > 1).

    ## Why
    RecoverSSM keeps bfloat16/float32 state caches and runs on one pipeline
    stage; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm -pp 2 \\
      --speculative-config '{"method":"ngram","num_speculative_tokens":2}'
    ```

    ## Fix
    Remove the flag named in the message.

    ## vLLM source
    vllm/config/vllm.py `validate_mamba_cached_kernel`: stochastic rounding
    0.29.0:2869, 0.30.0:3230, 0.31.0:3466, 0.32.0:3354, 0.33.0:3490;
    pipeline parallelism 0.29.0:2886, 0.30.0:3247, 0.31.0:3483, 0.32.0:3367,
    0.33.0:3503.
    """

    code = "SL208"
    vllm_checks = tuple(CHECKS[f"replayssm.{k}"] for k in ("sr", "pp"))
    reviewed = ("0.25.0", "0.33.0")
    name = RECOVER
    since = "0.29.0"
    reads = _BASE_READS | _SPEC_READS | {"enable_mamba_cache_stochastic_rounding", "pipeline_parallel_size"}


class ModelRunnerV2Triton(Rule):
    """Model Runner V2 forced on a platform without Triton.

    ## What it does
    In 0.25.0-0.32.0, reports a launch that forces Model Runner V2
    (`VLLM_USE_V2_MODEL_RUNNER=1` in its environment; also a watermark or
    HiSparse config from 0.30.0, and prefill context parallelism or a DSpark
    draft in 0.27.x/0.28.0) when the declared target has no Triton (`cpu`).

    ## Why
    vLLM validates the V2 runner while building its config and stops with
    "Model Runner V2 requires Triton." 0.33.0 no longer checks this.

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B    # on a CPU host
    ```

    ## Fix
    Unset `VLLM_USE_V2_MODEL_RUNNER` (or set it to 0).

    ## vLLM source
    vllm/config/vllm.py `_validate_v2_model_runner`: 0.25.0:2137,
    0.26.0:2216, 0.27.0/0.27.1:2255, 0.28.0:2478, 0.29.0:2724, 0.30.0:3079,
    0.31.0:3315, 0.32.0:3187, called from `__post_init__` when
    `use_v2_model_runner` (0.25.0:1387, 0.26.0:1457, 0.27.1:1491,
    0.28.0:1602, 0.32.0:2018).
    """

    code = "SL209"
    vllm_checks = (VllmCheck("model_runner_v2_triton", "Model Runner V2 requires Triton.", _VLLM_PY, whole=True),)
    reviewed = ("0.25.0", "0.33.0")
    name = "model-runner-v2-triton"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    until = "0.32.0"
    reads = frozenset({st.V2_ENV, "attention_config", "watermark_config", "prefill_context_parallel_size"}) | _SPEC_READS

    def check(self, ctx: Context) -> Iterable[Finding]:
        if st.has_triton(ctx.target) is not False:
            return
        inv = ctx.invocation
        v2 = st.use_v2_model_runner(ctx)
        if not v2.value:
            return
        message = "Model Runner V2 requires Triton."
        note = f"{v2.why}; target {ctx.target} has no Triton"
        var = inv.env.get(st.V2_ENV)
        if v2.how == "env" and var is not None and var.span is not None:
            span, path = var.span, ctx.path
        elif v2.flags:
            span, path = v2.flags[-1].name_span, _path_of(ctx, v2.flags[-1])
        else:
            span, path = inv.launch.entry_span, ctx.path
        yield Finding(span, f"{message} ({note})", vllm_message=message, path=path,
                      data={"vllm_source": vllm_source(ctx, "model_runner_v2_triton")})
