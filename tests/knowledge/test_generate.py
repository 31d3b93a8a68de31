"""The one command that adds a release, proven on a copy of the tables with
the newest release removed and added back.

The tables-level part (removing a release, re-encoding, adding one back,
the report) runs without vLLM.  The part that regenerates the release from
its wheel needs the vllm-oracle home with that release set up (CI has none:
it skips, saying why).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from servelint import knowledge

ROOT = Path(__file__).resolve().parents[2]
GENERATE = ROOT / "tools" / "knowledge" / "generate.py"
DATA = ROOT / "server" / "servelint" / "knowledge" / "data"
NEWEST = knowledge.NEWEST
BEFORE = knowledge.RELEASES[-2]


def generate(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SERVELINT_KNOWLEDGE_DATA": str(data)}
    return subprocess.run([sys.executable, str(GENERATE), *args], env=env, capture_output=True, text=True,
                          timeout=900)


def tables(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


def records(path: Path) -> dict:
    """What the tables say, decoded (the 'generated' dates left out)."""
    out = {}
    for name, raw in tables(path).items():
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        if name.endswith((".json", ".json.gz")):
            try:
                out[name] = _undated(json.loads(raw))
            except json.JSONDecodeError:  # a JSON-lines table (model-configs.json.gz)
                out[name] = [_undated(json.loads(line)) for line in raw.splitlines() if line.strip()]
    return out


def _undated(value):
    if isinstance(value, dict):
        return {k: _undated(v) for k, v in value.items() if k != "generated"}
    if isinstance(value, list):
        return [_undated(v) for v in value]
    return value


@pytest.fixture
def copy(tmp_path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(DATA, dest)
    return dest


def test_rebuild_is_byte_stable(copy):
    before = tables(copy)
    proc = generate(copy, "--rebuild")
    assert proc.returncode == 0, proc.stderr
    assert tables(copy) == before


def test_remove_the_newest_release_and_add_it_back(copy, tmp_path):
    original = tables(copy)
    proc = generate(copy, "--remove", NEWEST)
    assert proc.returncode == 0, proc.stderr
    index = json.loads((copy / "index.json").read_text())
    assert index["newest"] == BEFORE and NEWEST not in index["releases"]
    assert not (copy / f"release-{NEWEST}.json.gz").exists()
    history = json.loads(gzip.decompress((copy / "history.json.gz").read_bytes()))
    assert NEWEST not in history["releases"]
    assert NEWEST not in json.loads((copy / "images.json").read_text())["releases"]

    # back from the shipped tables: the same bytes, and the report of what
    # the release changed against the one before it
    proc = generate(copy, NEWEST, "--from-tables", str(DATA))
    assert proc.returncode == 0, proc.stderr
    assert tables(copy) == original
    report = proc.stdout
    assert report.startswith(f"== vLLM {NEWEST} (against {BEFORE})")
    old, new = knowledge.load(BEFORE), knowledge.load(NEWEST)
    added = sorted(o.name for o in new.options if o.dest not in old.by_dest)
    removed = sorted(o.name for o in old.options if o.dest not in new.by_dest)
    if added:
        assert f"flags added ({len(added)}): " + ", ".join(added) in report
    if removed:
        assert f"flags removed ({len(removed)}): " + ", ".join(removed) in report
    changed = [o.name for o in new.options if o.dest in old.by_dest and o.default != old.by_dest[o.dest].default]
    for name in changed:
        assert f"  {name}: " in report


def _oracle_ready(version: str) -> Path | None:
    home = Path(os.environ.get("VLLM_ORACLE_HOME", Path.home() / ".cache" / "vllm-oracle"))
    if (home / "venv" / "bin" / "python").exists() and (home / "releases" / version / ".vllm-oracle-ready").exists():
        return home
    return None


@pytest.mark.skipif(_oracle_ready(NEWEST) is None,
                    reason=f"needs the vllm-oracle home with vLLM {NEWEST} set up (VLLM_ORACLE_HOME); CI has none")
def test_regenerating_the_newest_release_from_its_wheel_gives_the_shipped_tables(copy):
    assert generate(copy, "--remove", NEWEST).returncode == 0
    proc = generate(copy, NEWEST, "--tables-only", "--no-images")
    assert proc.returncode == 0, proc.stderr[-3000:]
    got, want = records(copy), records(DATA)
    # the images table is read from the release's source distribution,
    # which --no-images leaves out
    got.pop("images.json", None), want.pop("images.json", None)
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == want[name], name
