"""What the ``VllmConfig`` cross-check rules of vllm/config/vllm.py (its first
1500 lines in 0.33.0) share: the checks they mirror, the features that turn
each check on, and one way to report a failing check.

A rule of this family mirrors one validator of ``VllmConfig.__post_init__``
(``_verify_aux_output_compatibility``, ``_verify_sampling_replay_config``,
``_check_supports_watermarking``, ...).  Such a validator stops at its first
``raise``; a rule reports every check that fails on what the file shows,
each a problem that would still stop vLLM once the ones before it were
fixed.  A check whose inputs the file does not show is skipped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...derive.base import UNKNOWN, Derived, is_int
from ...derive.flags import json_of, value_of, written
from ...derive.runner import V2_ENV, use_v2_model_runner
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, release_has, vllm_message

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag

_VLLM_PY = "vllm/config/vllm.py"

# The raises this family mirrors, by key; where each is, per release, is generated.
CHECKS = {
    c.key: c
    for c in (
        # Model Runner V2 only (use_v2_model_runner and its callers).
        VllmCheck("vllm_config.hisparse_v2", "HiSparse requires Model Runner V2; remove ", _VLLM_PY),
        VllmCheck("vllm_config.aux_v2", "AuxOutput Connector requires Model Runner V2; set ", _VLLM_PY),
        VllmCheck("vllm_config.sampling_v2", "sampling distribution replay requires Model Runner V2", _VLLM_PY,
                  whole=True),
        VllmCheck("vllm_config.trace_v2", "trace replay requires Model Runner V2", _VLLM_PY, whole=True),
        # _verify_aux_output_compatibility (0.31.0+) and its predecessor (0.28.0-0.30.0).
        VllmCheck("vllm_config.aux_generate", "AuxOutput Connector only supports generate runners.", _VLLM_PY),
        VllmCheck("vllm_config.aux_moe", "AuxOutput Connector only supports MoE models.", _VLLM_PY),
        VllmCheck("vllm_config.aux_prefix", "AuxOutput Connector requires prefix caching.", _VLLM_PY),
        VllmCheck("vllm_config.aux_adaptive",
                  "--enable-return-routed-experts is incompatible with adaptive speculative verification.", _VLLM_PY),
        VllmCheck("vllm_config.aux_pp",
                  "--enable-return-routed-experts is incompatible with pipeline parallelism (PP > 1).", _VLLM_PY),
        VllmCheck("vllm_config.aux_cp",
                  ("--enable-return-routed-experts is incompatible with context parallelism (DCP/PCP > 1).",
                   "--enable-return-routed-experts is incompatible with context parallelism (DCP > 1 or PCP > 1)."),
                  _VLLM_PY),
        VllmCheck("vllm_config.aux_pd", "; PD auxiliary output is not supported.", _VLLM_PY),
        VllmCheck("vllm_config.aux_kv",
                  "--enable-return-routed-experts is incompatible with KV connectors (PD disaggregation, KV cache "
                  "offload).", _VLLM_PY),
        # _verify_sampling_replay_config.
        VllmCheck("vllm_config.sampling_spec", "sampling distribution replay does not support speculative decoding",
                  _VLLM_PY),
        VllmCheck("vllm_config.sampling_adaptive",
                  "sampling distribution replay with speculative decoding requires fixed verification boundaries",
                  _VLLM_PY),
        VllmCheck("vllm_config.sampling_diffusion", "sampling distribution replay does not support diffusion models",
                  _VLLM_PY),
        VllmCheck("vllm_config.sampling_lp",
                  "sampling distribution replay does not support custom logits processors", _VLLM_PY),
        VllmCheck("vllm_config.sampling_logprobs", "sampling distribution replay requires logprobs_mode=", _VLLM_PY),
        # _check_supports_watermarking, with a speculative config.
        VllmCheck("vllm_config.watermark_draft",
                  "Speculative decoding with watermarking requires draft_sample_method=", _VLLM_PY),
        VllmCheck("vllm_config.watermark_rejection",
                  "Speculative decoding with watermarking requires rejection_sample_method=", _VLLM_PY),
        VllmCheck("vllm_config.watermark_parallel",
                  "Parallel speculative drafting is not supported with watermarking.", _VLLM_PY),
        VllmCheck("vllm_config.watermark_method",
                  ("Watermarking supports only dflash, dspark, eagle, eagle3 and ",
                   "Watermarking supports only autoregressive model-based "), _VLLM_PY),
        VllmCheck("vllm_config.watermark_algorithm",
                  "watermarking algorithm does not support speculative decoding. ", _VLLM_PY),
        # _verify_kv_transfer_compat.
        VllmCheck("vllm_config.kv_expandable",
                  "is incompatible with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True ", _VLLM_PY),
        # _maybe_override_dynamic_sd_cudagraph_mode (a warning).
        VllmCheck("vllm_config.dynamic_piecewise",
                  "Dynamic speculative decoding changes the target verification length at runtime. ", _VLLM_PY),
        # _resolve_and_verify_engram_config.
        VllmCheck("vllm_config.engram_dbo", "DeepSeek V4.1 Engram does not support DBO or microbatching. ",
                  _VLLM_PY),
    )
}


def checks(*names: str) -> tuple[VllmCheck, ...]:
    """The family's checks ``vllm_config.NAME``, for a rule's ``vllm_checks``."""
    return tuple(CHECKS[f"vllm_config.{n}"] for n in names)


def has(ctx: Context, name: str) -> bool:
    """Whether the launch's release has check ``vllm_config.NAME``."""
    return release_has(ctx, f"vllm_config.{name}")


def switched_on(ctx: Context, dest: str) -> Derived:
    """A boolean flag of the release: True (with its flags) when the launch
    turns it on, False when it does not, unknown when the file does not show."""
    inv = ctx.invocation
    if inv.knowledge.by_dest.get(dest) is None:
        return Derived(False, "default")
    v = value_of(inv, dest)
    if not v.known:
        return UNKNOWN if written(inv, dest) else Derived(False, "default")
    return Derived(v.value is True, v.how, "", v.flags)


def routed_experts(ctx: Context) -> Derived:
    """``AuxOutputConfig.enabled``: ``--enable-return-routed-experts`` or
    (0.31.0+) ``--aux-output-config`` ``enable_return_routed_experts``
    (engine/arg_utils.py, 0.33.0 :888-891); before 0.31.0 the flag is
    ``ModelConfig.enable_return_routed_experts``."""
    inv = ctx.invocation
    flag = switched_on(ctx, "enable_return_routed_experts")
    if flag.value:
        return flag
    if inv.knowledge.by_dest.get("aux_output_config") is not None and written(inv, "aux_output_config"):
        cfg = json_of(inv, "aux_output_config")
        if not cfg.known:
            return UNKNOWN
        on = cfg.value.get("enable_return_routed_experts")
        if on is True:
            return Derived(True, "flag", "", cfg.flags)
        if on is not None and on is not False:
            return UNKNOWN
    return flag


def v2_off(ctx: Context) -> Derived | None:
    """``use_v2_model_runner`` when servelint knows it is False (V1), else None."""
    v2 = use_v2_model_runner(ctx)
    return v2 if v2.value is False else None


def env_related(ctx: Context, name: str) -> list[Related]:
    """A related location on where the launch sets environment variable ``name``."""
    var = ctx.invocation.env.get(name)
    if var is None or var.span is None:
        return []
    return [Related(ctx.path, var.span, f"{name}={var.value} set here")]


def v2_related(ctx: Context, v2: Derived) -> list[Related]:
    """Where the runner choice comes from: the variable, or the flags that decided it."""
    if v2.how == "env":
        return env_related(ctx, V2_ENV)
    return related(ctx, v2.flags, "Model Runner V1 chosen because of {flag}") if v2.flags else []


def report(ctx: Context, flag: "Flag", name: str, *values: object, note: str = "",
           related_to: list | None = None) -> Finding | None:
    """A finding of check ``vllm_config.NAME`` on ``flag`` with the release's
    message (``values`` filling its formatted parts); None when the release
    has no such check."""
    key = f"vllm_config.{name}"
    message = vllm_message(ctx, key, *values)
    if message is None:
        return None
    return finding(ctx, flag, message, key, note=note, related_to=related_to)


def int_above(ctx: Context, dest: str, floor: int) -> Derived | None:
    """The flag's value when the launch writes it above ``floor``, else None."""
    v = value_of(ctx.invocation, dest)
    if v.how == "flag" and is_int(v.value) and v.value > floor:
        return v
    return None


class VllmConfigRule(Rule):
    """Base of the family: an error of one ``VllmConfig`` validator, reviewed
    against every release servelint knows.  A rule whose validator runs only
    when a feature is on names it (``feature``) and lists what fails
    (``problems``); the others write their own ``check``."""

    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    reviewed = ("0.25.0", "0.33.0")

    def feature(self, ctx: Context) -> Derived:  # pragma: no cover - overridden where used
        return UNKNOWN

    def problems(self, ctx: Context, on: Derived) -> Iterable[Finding | None]:  # pragma: no cover
        return ()

    def check(self, ctx: Context) -> Iterable[Finding]:
        on = self.feature(ctx)
        if not on.value or not on.flags:
            return
        for found in self.problems(ctx, on):
            if found is not None:
                yield found


class RoutedExpertsRule(VllmConfigRule):
    """A check of ``_verify_aux_output_compatibility`` (before 0.31.0, of
    ``__post_init__``): on when routed experts are returned."""

    requires = ("--enable-return-routed-experts", "--aux-output-config")

    def feature(self, ctx: Context) -> Derived:
        return routed_experts(ctx)

    @staticmethod
    def here(ctx: Context, on: Derived) -> list[Related]:
        return related(ctx, on.flags, "routed experts requested here")


class SamplingReplayRule(VllmConfigRule):
    """A check of ``_verify_sampling_replay_config``: on with ``--return-sampling-mask``."""

    requires = ("--return-sampling-mask",)

    def feature(self, ctx: Context) -> Derived:
        return switched_on(ctx, "return_sampling_mask")

    @staticmethod
    def here(ctx: Context, on: Derived) -> list[Related]:
        return related(ctx, on.flags, "sampling distribution replay requested here")
