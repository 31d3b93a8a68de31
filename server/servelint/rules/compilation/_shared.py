"""What the compilation rules share: ``CompilationConfig``'s parse-time
validation of ``--compilation-config``, replayed in vLLM's order.

argparse builds ``CompilationConfig`` from the JSON (dotted keys merged):
pydantic runs the field validators (``mode``, ``cudagraph_mode``), then
``__post_init__`` checks ``custom_ops``, the backend against the mode and the
CUDA graph sizes, stopping at the first failure.  ``first_problem`` answers
which check fails first, so each rule reports only the error vLLM shows.
Read in vllm/config/compilation.py of every release the rules name.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from ...derive.config_json import config_object
from ...derive.view import memo
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, finding, vllm_message

_PATH = "vllm/config/compilation.py"
MODE = VllmCheck("compilation.mode_unknown", "Invalid compilation mode: {}. Valid modes are: {}", _PATH)
CUSTOM_OPS_SYNTAX = VllmCheck("compilation.custom_ops_syntax", "for custom op, must be 'all', 'none', '+op' or '-op'", _PATH)
CUSTOM_OPS_BASE = VllmCheck("compilation.custom_ops_base_mode", "custom_ops can contain only one base mode", _PATH)
CUSTOM_OPS_CONFLICT = VllmCheck("compilation.custom_ops_conflict", "custom_ops cannot both enable and disable the same operation(s)", _PATH)
BACKEND = VllmCheck("compilation.backend_vllm_compile", "Invalid backend for piecewise compilation: {}", _PATH)
DECODER_SIZES = VllmCheck("compilation.decoder_replay_sizes_positive", "All decoder_replay_cudagraph_capture_sizes must be positive", _PATH)
VISION_ITEMS = VllmCheck("compilation.encoder_vision_items_nonneg", "encoder_cudagraph_max_vision_items_per_batch must be non-negative", _PATH)
FRAMES = VllmCheck("compilation.encoder_frames_nonneg", "encoder_cudagraph_max_frames_per_batch must be non-negative", _PATH)
TOKEN_BUDGETS = VllmCheck("compilation.encoder_token_budgets_positive", "All encoder_cudagraph_token_budgets must be positive, got {}", _PATH)

MODES = ("NONE", "STOCK_TORCH_COMPILE", "DYNAMO_TRACE_ONCE", "VLLM_COMPILE")
CUDAGRAPH_MODES = ("NONE", "PIECEWISE", "FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE")
# __post_init__ appends "+rotary_embedding" to custom_ops when one of these
# pass_config switches is still on, and PassConfig turns them off on some
# platforms (fuse_rope_kvcache off ROCm, enable_qk_norm_rope_fusion off
# CUDA/ROCm/XPU): a "-rotary_embedding" beside one of them may or may not
# conflict.
_ROPE_PASSES = ("enable_qk_norm_rope_fusion", "fuse_rope_kvcache", "fuse_qk_norm_rope_kvcache")


class Problem(NamedTuple):
    check: VllmCheck | None  # None: a check no mirrored rule names (cudagraph_mode's KeyError)
    values: tuple
    key: str  # the JSON key at fault
    detail: str = ""


# Not a problem vLLM reports, but one servelint cannot see past (a value
# pydantic may refuse with its own message): the rules stay silent.
_UNSURE = Problem(None, (), "")


def _custom_ops(cfg: dict) -> list | None:
    """``custom_ops`` as written, or None when vLLM may add to it."""
    ops = list(cfg.get("custom_ops") or [])
    passes = cfg.get("pass_config")
    if passes is not None and not isinstance(passes, dict):
        return None
    if "-rotary_embedding" in ops and any((passes or {}).get(name) for name in _ROPE_PASSES):
        return None
    return ops


def _mode(value) -> "int | Problem | None":
    """The written ``mode`` as its number, a Problem, or None (not written)."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.upper() not in MODES:
            return Problem(MODE, (value, ", ".join(MODES)), "mode")
        return MODES.index(value.upper())
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(MODES):
        return value
    return _UNSURE


def _field_problem(cfg: dict) -> Problem | None:
    cg = cfg.get("cudagraph_mode")
    if isinstance(cg, str) and cg.upper() not in CUDAGRAPH_MODES:
        # CUDAGraphMode[value.upper()] raises KeyError, which escapes pydantic
        # at once (no ValueError to collect).
        return Problem(None, (cg,), "cudagraph_mode", "cudagraph_mode")
    if cg is not None and not isinstance(cg, str) and not (isinstance(cg, int) and not isinstance(cg, bool)):
        return _UNSURE
    mode = _mode(cfg.get("mode"))
    return mode if isinstance(mode, Problem) else None


def _ints(values, positive: bool) -> bool:
    return any(v <= 0 if positive else v < 0 for v in values)


def _post_init_problem(cfg: dict, version: str) -> Problem | None:
    ops = _custom_ops(cfg)
    if ops is None:
        return _UNSURE
    if not validators.has(CUSTOM_OPS_BASE.key, version):
        # Up to 0.26.0: an assert ("Can only specify 'none' or 'all'") before the
        # syntax check, which then accepts a bare "+" and fails on "".
        if ops.count("all") + ops.count("none") > 1 or "" in ops:
            return _UNSURE
        ops = [op for op in ops if op not in ("+", "-")]
    for op in ops:
        if op not in {"all", "none"} and (len(op) < 2 or op[0] not in {"+", "-"}):
            return Problem(CUSTOM_OPS_SYNTAX, (op,), "custom_ops")
    if len([op for op in ops if op in {"all", "none"}]) > 1:
        return Problem(CUSTOM_OPS_BASE, (), "custom_ops")
    enabled = {op[1:] for op in ops if op.startswith("+")}
    disabled = {op[1:] for op in ops if op.startswith("-")}
    if conflicting := sorted(enabled & disabled):
        return Problem(CUSTOM_OPS_CONFLICT, (", ".join(conflicting),), "custom_ops")
    backend = cfg.get("backend", "")
    if _mode(cfg.get("mode")) == 3 and backend not in ("", "eager", "inductor"):
        return Problem(BACKEND, (backend,), "backend")
    if _ints(cfg.get("decoder_replay_cudagraph_capture_sizes") or (), positive=True):
        return Problem(DECODER_SIZES, (), "decoder_replay_cudagraph_capture_sizes")
    if cfg.get("cudagraph_mm_encoder"):
        if (cfg.get("encoder_cudagraph_max_vision_items_per_batch") or 0) < 0:
            return Problem(VISION_ITEMS, (), "encoder_cudagraph_max_vision_items_per_batch")
        frames = cfg.get("encoder_cudagraph_max_frames_per_batch")
        if frames is not None and frames < 0:
            return Problem(FRAMES, (), "encoder_cudagraph_max_frames_per_batch")
    budgets = cfg.get("encoder_cudagraph_token_budgets")
    if budgets and _ints(budgets, positive=True):
        return Problem(TOKEN_BUDGETS, (str(budgets),), "encoder_cudagraph_token_budgets")
    return None


def first_problem(inv) -> "tuple[Problem, object] | None":
    """The first check ``--compilation-config`` fails while argparse builds
    ``CompilationConfig``, with the flag that wrote it; None when it passes
    or servelint cannot tell."""
    if not inv.flags_for("compilation_config"):
        return None
    return memo(inv, ("compilation.first_problem",), lambda: _first_problem(inv))


def _first_problem(inv) -> "tuple[Problem, object] | None":
    got = config_object(inv, "compilation_config")
    if got is None or got[1] is None:
        return None
    cfg, flag = got
    problem = _field_problem(cfg) or _post_init_problem(cfg, inv.version)
    if problem is None or problem is _UNSURE:
        return None
    return problem, flag


def report(ctx: Context, check: VllmCheck | None, message: str | None = None) -> Iterable[Finding]:
    """The finding of ``check`` when it is the first ``--compilation-config``
    fails: vLLM's message, or ``message`` (formatted with the problem's
    values) for a check that has none."""
    got = first_problem(ctx.invocation)
    if got is None or got[0].check is not check:
        return
    problem, flag = got
    if check is None:
        text = message.format(*problem.values)
        yield finding(ctx, flag, None, "", message=text)
        return
    yield finding(ctx, flag, vllm_message(ctx, check.key, *problem.values), check.key,
                  note=f"key {problem.key!r} of {flag.canonical}")
