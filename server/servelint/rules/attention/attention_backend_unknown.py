"""SL771: an attention backend name that is not an `AttentionBackendEnum` member."""

from __future__ import annotations

from typing import Iterable

from ...derive.config_json import config_object
from ...derive.flags import value_of
from ...derive.model import arch_facts, model_config
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import UNKNOWN_BACKEND, attention_config_problems, note, unknown_backend


class AttentionBackendUnknown(Rule):
    """An attention backend vLLM does not have.

    ## What it does
    Reports `--attention-backend`, `--attention-config`'s `backend` and
    `backend_per_kind` values, `--speculative-config`'s
    `attention_backend`, and `--mm-encoder-attn-backend` of a multimodal
    model, naming no member of the release's
    `AttentionBackendEnum` (`FLASH_ATTN`, `TRITON_ATTN`, `FLASHINFER`,
    `FLASHINFER_MLA`, `TRITON_MLA`, `CUTLASS_MLA`, `FLEX_ATTENTION`, ...;
    any case; generated per release). `auto` stands for vLLM's own choice
    in `backend`, `attention_backend` and `--attention-backend`, not in
    `backend_per_kind`.

    ## Why
    vLLM looks the name up, upper-cased, and stops: "Unknown attention
    backend: 'FLASH_ATTENTION'. Valid options are: FLASH_ATTN, ...": while
    argparse reads `--attention-config`, or when the engine config is built
    for `--attention-backend` and `--speculative-config`.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --attention-backend flash_attention
    ```

    ## Fix
    Use one of the names vLLM lists.

    ## Evidence
    The names as written (a `--config` key, JSON dotted keys too). In
    `backend_per_kind` only the first problem of the map is reported (vLLM
    stops there: an unknown kind is `attention-backend-per-kind-unknown-kind`).
    Silent for `--attention-backend` beside `--attention-config`'s `backend`
    (vLLM refuses the pair first: `attention-backend-mutually-exclusive`),
    for `--mm-encoder-attn-backend` unless the model's config.json is known
    and its architecture multimodal, and for `XFORMERS` there (vLLM's own
    "has been removed" message comes first).

    ## vLLM source
    `_AttentionBackendEnumMeta.__getitem__`, called by `AttentionConfig.validate_backend_before` and `validate_backend_per_kind_before`, by `SpeculativeConfig._parse_attention_backend` and by `MultiModalConfig._validate_mm_encoder_attn_backend`.
    """

    code = "SL771"
    name = "attention-backend-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (UNKNOWN_BACKEND,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-backend"
    requires = ("--attention-backend", "--attention-config", "--speculative-config", "--mm-encoder-attn-backend")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        got = attention_config_problems(inv)
        if got is not None:
            problems, flag = got
            for p in problems:
                if p.check is UNKNOWN_BACKEND:
                    yield finding(ctx, flag, vllm_message(ctx, UNKNOWN_BACKEND.key, *p.values), UNKNOWN_BACKEND.key,
                                  note=note(p, f"key {p.key!r} of {flag.canonical}"))
        yield from self._shorthand(ctx)
        yield from self._speculative(ctx)
        yield from self._mm_encoder(ctx)

    def _mm_encoder(self, ctx: Context) -> Iterable[Finding]:
        """``MultiModalConfig._validate_mm_encoder_attn_backend``: the same
        lookup after its ``XFORMERS`` check, for a multimodal model only
        (``ModelConfig`` builds ``MultiModalConfig`` for those alone)."""
        inv = ctx.invocation
        if inv.last("mm_encoder_attn_backend") is None:
            return
        v = value_of(inv, "mm_encoder_attn_backend")
        if not v.known or not isinstance(v.value, str) or not v.flags or v.value.upper() == "XFORMERS":
            return
        if model_config(ctx) is None:
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal is not True:
            return
        p = unknown_backend(v.value, ctx.version)
        if p is None or not validators.has(UNKNOWN_BACKEND.key, ctx.version):
            return
        yield finding(ctx, v.flags[-1], vllm_message(ctx, UNKNOWN_BACKEND.key, *p.values), UNKNOWN_BACKEND.key,
                      note=note(p))

    def _speculative(self, ctx: Context) -> Iterable[Finding]:
        """``SpeculativeConfig._parse_attention_backend``: the same lookup,
        when ``create_engine_config`` builds the config from
        ``--speculative-config``."""
        inv = ctx.invocation
        if not inv.flags_for("speculative_config"):
            return
        got = config_object(inv, "speculative_config")
        if got is None or got[1] is None:
            return
        cfg, flag = got
        backend = cfg.get("attention_backend")
        if not isinstance(backend, str) or backend.lower() == "auto":
            return
        p = unknown_backend(backend, ctx.version)
        if p is None or not validators.has(UNKNOWN_BACKEND.key, ctx.version):
            return
        yield finding(ctx, flag, vllm_message(ctx, UNKNOWN_BACKEND.key, *p.values), UNKNOWN_BACKEND.key,
                      note=note(p, f"key 'attention_backend' of {flag.canonical}"))

    def _shorthand(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("attention_backend") is None:
            return
        v = value_of(inv, "attention_backend")
        if not v.known or not isinstance(v.value, str) or not v.flags or v.value.lower() == "auto":
            return
        if inv.flags_for("attention_config"):
            cfg = config_object(inv, "attention_config")
            if cfg is None:
                return
            backend = cfg[0].get("backend")
            if backend is not None and not (isinstance(backend, str) and backend.lower() == "auto"):
                return  # attention-backend-mutually-exclusive first
        p = unknown_backend(v.value, ctx.version)
        if p is None or not validators.has(UNKNOWN_BACKEND.key, ctx.version):
            return
        yield finding(ctx, v.flags[-1], vllm_message(ctx, UNKNOWN_BACKEND.key, *p.values), UNKNOWN_BACKEND.key,
                      note=note(p))
