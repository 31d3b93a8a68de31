"""What the observability rules share: ``ObservabilityConfig``'s two
validators of ``--custom-histogram-buckets``, replayed in vLLM's order.

``_reject_bool_histogram_bounds`` (mode="before") looks at every family's
list for a boolean first; pydantic then converts the object to
``dict[str, list[float]]``; ``_validate_custom_histogram_buckets`` walks the
families in order and stops at the first unknown family, empty list, bound
not finite and positive, or list not strictly increasing.  ``first_problem``
answers which check fails first, so each rule reports only the error vLLM
shows.  Read in vllm/config/observability.py of 0.32.0 and 0.33.0 (the
option is new in 0.32.0; the validators are the same in both).
"""

from __future__ import annotations

import math
from typing import Iterable, NamedTuple

from ...derive.flags import json_of
from ...derive.view import memo
from ...knowledge import validators
from ...knowledge.config_names import names
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, finding, vllm_message

_PATH = "vllm/config/observability.py"
BOOL = VllmCheck("observability.histogram_bucket_bool", "must be a number, not a boolean", _PATH)
UNKNOWN_FAMILY = VllmCheck("observability.histogram_bucket_unknown_family",
                           "custom_histogram_buckets: unknown bucket family {}; known families: {}", _PATH)
EMPTY = VllmCheck("observability.histogram_bucket_empty", "bucket list must not be empty", _PATH)
BOUND = VllmCheck("observability.histogram_bucket_bound_positive", "must be finite and greater than 0", _PATH)
INCREASING = VllmCheck("observability.histogram_bucket_increasing", "must be strictly increasing", _PATH)


class Problem(NamedTuple):
    check: VllmCheck
    values: tuple  # the values vLLM formats into its message, as it prints them
    family: str


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _checks(buckets: dict, families: tuple[str, ...]) -> "Iterable[Problem] | None":
    """Every check that fails, in vLLM's order; None when pydantic refuses
    the object first (or may: servelint does not model its string
    conversions) with its own message."""
    for family, bounds in buckets.items():
        if isinstance(bounds, list):
            for bound in bounds:
                if isinstance(bound, bool):
                    # f"... {bound!r} ...": True/False.
                    return [Problem(BOOL, (repr(family), repr(bound)), family)]
    # dict[str, list[float]]: anything but a list of numbers is pydantic's
    # own error (strings it may convert: servelint stays silent).
    if not all(isinstance(k, str) and isinstance(v, list) and all(_is_number(b) for b in v) for k, v in buckets.items()):
        return None
    out = []
    for family, bounds in buckets.items():
        floats = [float(b) for b in bounds]  # pydantic's float: 1 -> 1.0
        if family not in families:
            out.append(Problem(UNKNOWN_FAMILY, (repr(family), repr(sorted(families))), family))
            continue
        if not floats:
            out.append(Problem(EMPTY, (repr(family),), family))
            continue
        bad = next((b for b in floats if not math.isfinite(b) or b <= 0), None)
        if bad is not None:
            out.append(Problem(BOUND, (repr(family), repr(bad)), family))
            continue
        if any(a >= b for a, b in zip(floats, floats[1:])):
            out.append(Problem(INCREASING, (repr(family), repr(floats)), family))
    return out


def first_problem(inv) -> "tuple[Problem, object] | None":
    """The first check ``--custom-histogram-buckets`` fails in the launch's
    release, with the flag that wrote it; None when it passes or servelint
    cannot tell."""
    if not inv.flags_for("custom_histogram_buckets"):
        return None
    return memo(inv, ("observability.first_problem",), lambda: _first_problem(inv))


def _first_problem(inv) -> "tuple[Problem, object] | None":
    families = names("bucket_families", inv.version)
    if families is None:
        return None
    got = json_of(inv, "custom_histogram_buckets")
    if not got.known or not isinstance(got.value, dict) or not got.flags:
        return None
    problems = _checks(got.value, families)
    if not problems:
        return None
    # The validator stops at the first failing family: the first problem
    # is the one vLLM shows, when the launch's release has its check.
    problem = problems[0]
    if not validators.has(problem.check.key, inv.version):
        return None
    return problem, got.flags[-1]


def report(ctx: Context, check: VllmCheck) -> Iterable[Finding]:
    """The finding of the first check ``--custom-histogram-buckets`` fails,
    when it is ``check``."""
    got = first_problem(ctx.invocation)
    if got is None or got[0].check is not check:
        return
    problem, flag = got
    yield finding(ctx, flag, vllm_message(ctx, check.key, *problem.values), check.key,
                  note=f"family {problem.family!r} of {flag.canonical}")
