"""Which Model Runner vLLM picks (``VllmConfig.use_v2_model_runner``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge.versions import version_key
from ..values import effective
from .base import UNKNOWN, Derived, at_least
from .cache import mamba_cache_mode
from .flags import json_of, value_of, written
from .speculative import Speculation, speculation

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from .view import View

V2_ENV = "VLLM_USE_V2_MODEL_RUNNER"


def has_triton(target: str) -> bool | None:
    """``HAS_TRITON`` (vllm/triton_utils/importing.py) on the declared target.

    True on CUDA and ROCm (triton with one active driver); False on CPU, as
    under the oracle (no GPU driver; a vLLM CPU build without triton's CPU
    backend); unknown elsewhere.
    """
    return {"cuda": True, "rocm": True, "cpu": False}.get(target)


def v2_env(inv: "Invocation") -> Derived:
    """``envs.VLLM_USE_V2_MODEL_RUNNER``: ``bool(int(value))``, None if unset
    (envs.py ``maybe_convert_bool``: 0.27.1 :325, 0.28.0 :338, 0.33.0 :360)."""
    var = inv.env.get(V2_ENV)
    if var is None:
        return Derived(None, "default")
    if var.value is None or not var.exact:
        return UNKNOWN
    try:
        value = bool(int(var.value))
    except ValueError:
        return UNKNOWN  # vLLM itself fails reading it
    return Derived(value, "env", f"{V2_ENV}={var.value}")


# Flags behind the other entries of ``_get_v2_model_runner_unsupported_features``,
# which servelint does not evaluate: when one is written the choice is
# unknown.  0.29.0-0.31.0 also look at elastic EP and, up to 0.30.0, logits
# processors (0.29.0 also KV sharing fast prefill); 0.32.0+ only at
# external_launcher with pipeline parallelism and ubatching (DBO).  The
# compilation mode (stock torch.compile, 0.29.0-0.31.0) is evaluated.
_V2_OPAQUE_ALWAYS = ("distributed_executor_backend", "enable_dbo", "ubatch_size")


_V2_OPAQUE_BEFORE_0_32 = (
    "enable_elastic_ep",
    "logits_processors",
    "kv_sharing_fast_prefill",
)


# Every flag ``use_v2_model_runner`` may read, besides the model and the
# speculative config: a rule's ``reads`` hint.
V2_CHOICE_DESTS = _V2_OPAQUE_ALWAYS + _V2_OPAQUE_BEFORE_0_32 + (
    "attention_config",
    "watermark_config",
    "prefill_context_parallel_size",
    "tensor_parallel_size",
    "compilation_config",
)


def _spec_blocks_v2(version: str, spec: Speculation) -> bool | None:
    """Whether the speculative method is in the release's "V2 does not yet
    support" list (``_get_v2_model_runner_unsupported_features``)."""
    if not spec.active:
        return False if spec.active is False else None
    method = spec.method
    if method is None:
        return None  # derived from the draft model's name/config
    if version_key(version) <= version_key("0.29.0"):
        # 0.28.0 :2369, 0.29.0 :2539: ngram/ngram_gpu, and anything but these.
        allowed = ("eagle", "eagle3", "mtp", "dflash", "dspark", "extract_hidden_states")
        return method not in allowed
    if version_key(version) <= version_key("0.30.0"):
        blocked = ("ngram", "ngram_gpu", "draft_model", "suffix", "medusa", "mlp_speculator", "custom_class")
    elif version_key(version) <= version_key("0.31.0"):
        blocked = ("ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator", "custom_class")
    elif version_key(version) <= version_key("0.32.0"):
        blocked = ("suffix", "medusa", "mlp_speculator", "custom_class")
    else:
        blocked = ("suffix", "custom_class")
    return method in blocked


def use_v2_model_runner(ctx: "View") -> Derived:
    """``VllmConfig.use_v2_model_runner`` on the declared target.

    0.29.0-0.33.0 (config/vllm.py ``use_v2_model_runner``: 0.29.0 :645,
    0.30.0 :675, 0.31.0 :701, 0.32.0 :703, 0.33.0 :731):

    1. (0.30.0+) a HiSparse attention config or a watermark config forces V2;
    2. ``VLLM_USE_V2_MODEL_RUNNER`` from the launch's environment, if set;
    3. (0.29.0-0.31.0, ROCm) V1 for some architectures: unknown here;
    4. no Triton (``HAS_TRITON``, see ``has_triton``): V1;
    5. any feature of ``_get_v2_model_runner_unsupported_features`` (0.29.0
       :2539, 0.30.0 :2815, 0.31.0 :3051, 0.32.0 :2914, 0.33.0 :3053): V1.
       servelint evaluates the speculative method, stock torch.compile
       (before 0.32.0) and Mamba cache mode 'all' (0.30.0/0.31.0); tensor
       parallelism before 0.32.0 (sequence
       parallelism depends on the model's size) and any other flag of that
       list make the answer unknown;
    6. otherwise V2.

    0.26.0-0.28.0 (0.26.0 :550, 0.27.1 :578, 0.28.0 :615): the environment
    variable, then (0.27.0+) prefill context parallelism > 1 or a DSpark
    draft force V2; the
    default path returns V1 without Triton and otherwise depends on a list
    of default-V2 architectures, which servelint does not model (unknown).
    """
    inv = ctx.invocation
    version = ctx.version
    target = ctx.target
    if at_least(version, "0.30.0"):
        forced = _forced_v2_by_config(inv)
        if forced.value is not False:
            return forced
    env = v2_env(inv)
    if env.how == "env" or env.how == "unknown":
        return env
    triton = has_triton(target)
    if not at_least(version, "0.29.0"):
        pcp = value_of(inv, "prefill_context_parallel_size")
        if written(inv, "prefill_context_parallel_size") and at_least(version, "0.27.0"):
            if not pcp.known:
                return UNKNOWN
            if isinstance(pcp.value, int) and pcp.value > 1:
                return Derived(True, "flag", "prefill context parallelism requires Model Runner V2", pcp.flags)
        spec = speculation(inv)
        if spec.active is None or spec.active and spec.method in (None, "dflash"):
            return UNKNOWN
        if spec.active and spec.method == "dspark":
            return Derived(True, "flag", "DSpark requires Model Runner V2", spec.flags)
        if triton is False:
            return Derived(False, "platform", f"vLLM {version} picks Model Runner V1 without Triton (target {target})")
        return UNKNOWN
    if target == "rocm" and not at_least(version, "0.32.0"):
        return UNKNOWN
    if triton is None:
        return UNKNOWN
    if not triton:
        return Derived(False, "platform", f"vLLM {version} picks Model Runner V1 without Triton (target {target})")
    opaque = _V2_OPAQUE_ALWAYS if at_least(version, "0.32.0") else _V2_OPAQUE_ALWAYS + _V2_OPAQUE_BEFORE_0_32
    if any(written(inv, dest) for dest in opaque):
        return UNKNOWN
    if not at_least(version, "0.32.0"):
        tp = value_of(inv, "tensor_parallel_size")
        if not tp.known or (isinstance(tp.value, int) and tp.value > 1):
            return UNKNOWN
        compilation = json_of(inv, "compilation_config")
        if not compilation.known:
            return UNKNOWN
        mode = compilation.value.get("mode")
        if mode == 1 or str(mode).upper() in ("1", "STOCK_TORCH_COMPILE"):
            return Derived(False, "flag", f"Model Runner V2 does not support stock torch.compile in vLLM {version}",
                           compilation.flags)
    spec = speculation(inv)
    blocked = _spec_blocks_v2(version, spec)
    if blocked is None:
        return UNKNOWN
    if blocked:
        return Derived(False, "default", f"Model Runner V2 does not support speculative method '{spec.method}' in vLLM {version}", spec.flags)
    if spec.active and _spec_parallel_drafting(inv):
        return UNKNOWN
    if at_least(version, "0.30.0") and not at_least(version, "0.32.0"):
        mode = mamba_cache_mode(ctx)
        if not mode.known:
            return UNKNOWN
        if mode.value == "all":
            return Derived(False, "default", "Model Runner V2 does not support Mamba cache mode 'all'", mode.flags)
    return Derived(True, "default", f"vLLM {version} picks Model Runner V2 by default on {target.upper()}")


def _forced_v2_by_config(inv: "Invocation") -> Derived:
    """0.30.0+: ``attention_config.hisparse_config`` or ``watermark_config``
    set makes ``use_v2_model_runner`` True before the environment is read."""
    for dest in ("attention_config", "watermark_config"):
        flags = written(inv, dest)
        if not flags:
            continue
        cfg = json_of(inv, dest)
        if not cfg.known:
            return UNKNOWN
        if dest == "attention_config":
            on = cfg.value.get("hisparse_config") is not None
        else:
            on = effective(inv, dest) is not None  # even "{}" builds a WatermarkConfig
        if on:
            return Derived(True, "flag", f"{flags[-1].canonical} requires Model Runner V2", tuple(flags))
    return Derived(False, "default")


def _spec_parallel_drafting(inv: "Invocation") -> bool:
    cfg = json_of(inv, "speculative_config")
    return bool(cfg.known and cfg.value.get("parallel_drafting"))
