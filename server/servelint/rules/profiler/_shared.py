"""What the profiler rules share: ``ProfilerConfig``'s model validator,
replayed in vLLM's order.

``first_problem`` answers which check ``--profiler-config`` fails first (a
check the launch's release lacks is skipped: the generated table says which
releases have each), so each rule reports only the error vLLM shows.  Read
in vllm/config/profiler.py of 0.25.0-0.33.0: the checks were added over the
releases, always in this order.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from ...derive.config_json import config_object, has_field
from ...derive.view import memo
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, finding, vllm_message

_PATH = "vllm/config/profiler.py"
ACTIVITIES_TORCH = VllmCheck("profiler.activities_require_torch",
                             "torch_profiler_activities is only applicable when profiler is set to 'torch'", _PATH)
ACTIVITIES_DUPLICATES = VllmCheck("profiler.activities_duplicates", "torch_profiler_activities must not contain duplicates", _PATH)
DIR_TORCH = VllmCheck("profiler.torch_dir_requires_torch", "torch_profiler_dir is only applicable when profiler is set to 'torch'", _PATH)
TORCH_DIR = VllmCheck("profiler.torch_requires_dir", "torch_profiler_dir must be set when profiler is 'torch'", _PATH)
PROTON_OPTIONS = VllmCheck("profiler.proton_options", "{} only applicable when profiler is set to 'proton'", _PATH)
PROTON_DIR = VllmCheck("profiler.proton_requires_dir", "proton_profiler_dir must be set when profiler is 'proton'", _PATH)
PROTON_LOCAL = VllmCheck("profiler.proton_dir_local", "proton_profiler_dir must be a local directory", _PATH)
ATTRIBUTION_TREE = VllmCheck("profiler.proton_attribution_tree", "proton_graph_attribution requires proton_data='tree'", _PATH)
ATTRIBUTION_FLUSHING = VllmCheck("profiler.proton_attribution_flushing",
                                 "proton_graph_attribution is incompatible with periodic_flushing", _PATH)
CHROME_TRACE = VllmCheck("profiler.proton_chrome_trace", "chrome_trace output requires proton_data='trace'", _PATH)
HATCHET_TREE = VllmCheck("profiler.proton_hatchet_tree", "{} output requires proton_data='tree'", _PATH)
CAPTURE_TORCH = VllmCheck("profiler.capture_requires_torch",
                          "capture_torch_profiler is only applicable when profiler is set to 'torch'", _PATH)

# The Proton options vLLM lists when the profiler is not Proton, in its
# order, with their defaults (proton_graph_attribution from 0.30.0: listed
# where the field exists).
_PROTON_DEFAULTS = (
    ("proton_profiler_dir", ""), ("proton_context", "shadow"), ("proton_data", "tree"), ("proton_backend", None),
    ("proton_mode", None), ("proton_hook", None), ("proton_output_format", None), ("proton_graph_attribution", False),
)


class Problem(NamedTuple):
    check: VllmCheck
    values: tuple
    keys: tuple[str, ...]  # the JSON keys at fault


def _is_uri(path: str) -> bool:
    return "://" in path and len(path.split("://")[0]) > 1


def _checks(cfg: dict, inv) -> Iterable[Problem]:
    """Every check of the validator that fails, in vLLM's order."""
    profiler = cfg.get("profiler")
    activities = cfg.get("torch_profiler_activities")
    if activities is not None:
        if profiler != "torch":
            yield Problem(ACTIVITIES_TORCH, (), ("torch_profiler_activities", "profiler"))
        if len(activities) != len(set(activities)):
            yield Problem(ACTIVITIES_DUPLICATES, (), ("torch_profiler_activities",))
    torch_dir = cfg.get("torch_profiler_dir", "")
    if torch_dir and profiler != "torch":
        yield Problem(DIR_TORCH, (), ("torch_profiler_dir", "profiler"))
    if profiler == "torch" and not torch_dir:
        yield Problem(TORCH_DIR, (), ("profiler",))
    proton_dir = cfg.get("proton_profiler_dir", "")
    options = [name for name, default in _PROTON_DEFAULTS
               if has_field(inv, "profiler_config", name) and cfg.get(name, default) != default]
    if profiler != "proton" and options:
        yield Problem(PROTON_OPTIONS, (", ".join(options),), tuple(options))
    if profiler == "proton" and not proton_dir:
        yield Problem(PROTON_DIR, (), ("profiler",))
    if proton_dir and _is_uri(proton_dir):
        yield Problem(PROTON_LOCAL, (), ("proton_profiler_dir",))
    if profiler == "proton":
        data = cfg.get("proton_data", "tree")
        output = cfg.get("proton_output_format")
        attribution = cfg.get("proton_graph_attribution", False)
        mode = cfg.get("proton_mode")
        if attribution and data != "tree":
            yield Problem(ATTRIBUTION_TREE, (), ("proton_graph_attribution", "proton_data"))
        if attribution and mode and mode.split(":", 1)[0].lower() == "periodic_flushing":
            yield Problem(ATTRIBUTION_FLUSHING, (), ("proton_graph_attribution", "proton_mode"))
        if output == "chrome_trace" and data != "trace":
            yield Problem(CHROME_TRACE, (), ("proton_output_format", "proton_data"))
        if output in ("hatchet", "hatchet_msgpack") and data != "tree":
            yield Problem(HATCHET_TREE, (output,), ("proton_output_format", "proton_data"))
    if cfg.get("capture_torch_profiler") and profiler != "torch":
        yield Problem(CAPTURE_TORCH, (), ("capture_torch_profiler", "profiler"))


def first_problem(inv) -> "tuple[Problem, object] | None":
    """The first check ``--profiler-config`` fails in the launch's release,
    with the flag that wrote it; None when it passes or servelint cannot tell."""
    if not inv.flags_for("profiler_config"):
        return None
    return memo(inv, ("profiler.first_problem",), lambda: _first_problem(inv))


def _first_problem(inv) -> "tuple[Problem, object] | None":
    got = config_object(inv, "profiler_config")
    if got is None or got[1] is None:
        return None
    cfg, flag = got
    if cfg.get("torch_profiler_activities") == []:
        return None  # min_length=1: pydantic refuses it first
    for problem in _checks(cfg, inv):
        if validators.has(problem.check.key, inv.version):
            return problem, flag
    return None


def report(ctx: Context, *checks: VllmCheck) -> Iterable[Finding]:
    """The finding of the first check ``--profiler-config`` fails, when it is
    one of ``checks``."""
    got = first_problem(ctx.invocation)
    if got is None or got[0].check not in checks:
        return
    problem, flag = got
    keys = " and ".join(repr(k) for k in problem.keys)
    yield finding(ctx, flag, vllm_message(ctx, problem.check.key, *problem.values), problem.check.key,
                  note=f"{'key' if len(problem.keys) == 1 else 'keys'} {keys} of {flag.canonical}")
