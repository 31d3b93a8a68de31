"""The import graph of ``servelint`` follows docs/architecture.md: no cycles,
and no module imports from a layer below its own (a higher number).

The graph is read from the source with ``ast``, every import counted: those
at the top of a module and those inside functions (a lazy import is an
import all the same).  Imports under ``if TYPE_CHECKING:`` are left out:
they name a type for the reader and the type checker, and load nothing.
The layers are the table in docs/architecture.md ("## Layers"); every
module must be in it.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "servelint"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# Import edges (importer, imported) left out of the cycle check, each with
# the reason and who removes it.  Nothing else may be listed here.
KNOWN_CYCLE_EDGES: set[tuple[str, str]] = set()


def _modules(package_dir: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes inside ``if TYPE_CHECKING:`` blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else None
            if name == "TYPE_CHECKING":
                for inner in node.body:
                    skip.update(id(n) for n in ast.walk(inner))
    return skip


@lru_cache(maxsize=None)
def import_graph(package_dir: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package (servelint) → the package's modules it imports."""
    top = package_dir.name
    modules = _modules(package_dir)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skip = _type_checking_only(tree)
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == top)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != top:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in modules else target)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def layers() -> list[tuple[int, list[str]]]:
    """(layer, the module names and ``package/`` prefixes in its row) from
    the table in docs/architecture.md; what a row says in parentheses
    (its submodules) is description, not more entries."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        depth, names = 0, []
        for part in re.split(r"([()])", cells[2]):
            if part == "(":
                depth += 1
            elif part == ")":
                depth -= 1
            elif depth == 0:
                names.extend(re.findall(r"`([^`]+)`", part))
        rows.append((int(cells[0]), names))
    assert rows, f"no layer table under '## Layers' in {ARCHITECTURE}"
    return rows


def layer_of(module: str, rows: list[tuple[int, list[str]]]) -> int | None:
    """The layer of ``servelint.x.y``: its row's entry ``x/`` (a package and
    everything in it), ``x.y``, or ``x``; ``servelint`` itself is ``__init__``."""
    rel = module.partition(".")[2] or "__init__"
    for layer, names in rows:
        for entry in names:
            if entry.endswith("/"):
                package = entry.rstrip("/").replace("/", ".")
                if rel == package or rel.startswith(package + "."):
                    return layer
            elif rel == entry.replace("/", "."):
                return layer
    return None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_layer() -> None:
    rows = layers()
    missing = sorted(m for m in import_graph() if layer_of(m, rows) is None)
    assert not missing, (
        f"modules in no layer of the table in docs/architecture.md: {missing}; "
        "add each to the row of the layer it belongs to"
    )


def test_no_module_imports_from_a_layer_below_its_own() -> None:
    rows = layers()
    graph = import_graph()
    upward = sorted(
        f"{m} (layer {layer_of(m, rows)}) imports {t} (layer {layer_of(t, rows)})"
        for m, targets in graph.items() for t in targets
        if layer_of(m, rows) is not None and layer_of(t, rows) is not None and layer_of(t, rows) > layer_of(m, rows)
    )
    assert not upward, "imports against the layers of docs/architecture.md:\n" + "\n".join(upward)


def test_no_import_cycles() -> None:
    graph = {m: {t for t in ts if (m, t) not in KNOWN_CYCLE_EDGES} for m, ts in import_graph().items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_each_known_cycle_edge_still_exists() -> None:
    # A listed exception that is gone must leave the list, so that it cannot
    # hide a new cycle over the same modules.
    graph = import_graph()
    gone = sorted(f"{m} -> {t}" for m, t in KNOWN_CYCLE_EDGES if t not in graph.get(m, ()))
    assert not gone, f"remove from KNOWN_CYCLE_EDGES in tests/test_layers.py (no longer imported): {gone}"


def test_the_graph_counts_lazy_imports_and_leaves_out_type_checking_ones(tmp_path) -> None:
    pkg = tmp_path / "demo"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import leaf\n")
    (pkg / "sub" / "leaf.py").write_text("")
    (pkg / "low.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .high import Thing\n"
        "def later():\n    from .sub.leaf import x\n    import demo.high\n"
    )
    (pkg / "high.py").write_text("from .sub import leaf\nfrom . import low\n")
    assert import_graph(pkg) == {
        "demo": set(),
        "demo.sub": {"demo.sub.leaf"},
        "demo.sub.leaf": set(),
        "demo.low": {"demo.sub.leaf", "demo.high"},
        "demo.high": {"demo.sub.leaf", "demo.low"},
    }
    assert _cycles(import_graph(pkg)) == [["demo.high", "demo.low"]]
