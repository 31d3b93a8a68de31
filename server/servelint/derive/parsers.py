"""The tool-call and reasoning parsers a release registers, and which
parser a launch asks `validate_api_server_args` to accept.

The names come from ``knowledge/data/parsers.json``, generated from each
unpacked release by ``tools/knowledge/parsers.py`` (the registration tables
of vllm/tool_parsers and vllm/reasoning); a release the table lacks has no
names here, and the rules reading them stay silent there.  Each list is
sorted as ``list_registered()`` sorts it (vLLM joins it, in that order, into
its message); the code facts below are that sort.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge import tables, validators
from ..knowledge.validators import VllmCheck
from ..model import Entry
from .flags import switch, value_of, written
from .serve import api_server_count

if TYPE_CHECKING:  # pragma: no cover
    from .view import View


TOOL_SORTED = VllmCheck(
    "tool_parser.list_registered", "return sorted(set(cls.tool_parsers.keys()) | set(cls.lazy_parsers.keys()))",
    code=True,
)
REASONING_SORTED = VllmCheck(
    "reasoning_parser.list_registered",
    "return sorted(set(cls.reasoning_parsers.keys()) | set(cls.lazy_parsers.keys()))",
    code=True,
)
VLLM_FACTS = (TOOL_SORTED, REASONING_SORTED)


def _table() -> dict:
    return tables.releases("parsers.json")


def registered(version: str, kind: str) -> tuple[str, ...] | None:
    """The names ``kind`` ("tool" or "reasoning") parsers are registered
    under in ``version`` (sorted as vLLM lists them); None when unknown."""
    names = _table().get(version, {}).get(kind)
    fact = TOOL_SORTED if kind == "tool" else REASONING_SORTED
    if names is None or not validators.has(fact.key, version):
        return None
    return tuple(names)


def plugin_may_register(ctx: "View", dest: str) -> bool:
    """Whether a parser plugin the launch names may register more names:
    ``init_parser_plugin`` imports ``--tool-parser-plugin`` /
    ``--reasoning-parser-plugin`` when its value is longer than 3
    characters; a value only known at run time may be one."""
    inv = ctx.invocation
    if dest not in inv.knowledge.by_dest or not written(inv, dest):
        return False
    v = value_of(inv, dest)
    if v.how == "unknown":
        return True
    return isinstance(v.value, str) and len(v.value) > 3


def runs_setup_server(ctx: "View") -> bool | None:
    """Whether the launch reaches ``setup_server`` (which runs
    ``validate_api_server_args``): the OpenAI api_server module always;
    `vllm serve` unless it runs the gRPC server or is headless (no API
    server: ``api_server_count`` below 1 without the multi-port
    supervisor).  None when the file does not show it."""
    inv = ctx.invocation
    entry = inv.launch.entry
    if entry is Entry.API_SERVER:
        return True
    if entry not in (Entry.SERVE, Entry.IMAGE):
        return False
    grpc = switch(inv, "grpc")
    multi = switch(inv, "data_parallel_multi_port_external_lb")
    if grpc is None or multi is None:
        return None
    if grpc:
        return False
    if multi:
        return True
    count = api_server_count(ctx)
    if count is None:
        return None
    return count >= 1


def closest(name: str, names: tuple[str, ...]) -> str | None:
    """The registered name ``name`` is most likely a misspelling of, for
    "did you mean" (difflib, imported only when a name is unknown)."""
    import difflib

    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None
