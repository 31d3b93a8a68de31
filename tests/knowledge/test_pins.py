"""Which knowledge a pinned release is read with (servelint.release), and
what the project files beside a launch pin."""

from __future__ import annotations

import pytest

from servelint import knowledge, release
from servelint.knowledge.versions import version_key

RELEASES = knowledge.RELEASES
OLDEST, NEWEST = RELEASES[0], RELEASES[-1]


def _next_minor(v: str) -> str:
    major, minor = version_key(v)[:2]
    return f"{major}.{minor + 1}.0"


def test_a_known_release_is_used_as_is():
    for v in ("0.6.3.post1", "0.8.5", "0.10.1.1", NEWEST):
        assert release.classify(v) == (v, None, None)


def test_a_patch_release_not_in_the_tables_uses_its_minor_and_says_so():
    version, note, outside = release.classify("0.8.5.post2")
    assert version == "0.8.5.post1" and outside is None
    assert "0.8.5.post2" in note and "0.8.5.post1" in note
    newer_patch = NEWEST.rsplit(".", 1)[0] + ".9"
    version, note, outside = release.classify(newer_patch)
    assert version_key(version)[:2] == version_key(newer_patch)[:2] and outside is None and note


@pytest.mark.parametrize("asked, outside, used", [
    ("0.4.2", "older", OLDEST),
    ("0.5.5", "older", OLDEST),
    ("v0.4.0.post1", "older", OLDEST),
    (_next_minor(NEWEST), "newer", NEWEST),
    ("1.0.0", "newer", NEWEST),
    ("latest", "unparseable", NEWEST),
    ("0.x", "unparseable", NEWEST),
])
def test_releases_outside_the_tables(asked, outside, used):
    version, note, got = release.classify(asked)
    assert (version, got) == (used, outside)
    assert used in note


def test_project_files_pin_exact_releases_only():
    pin = release.project_pin([("/p/requirements.txt", "torch==2.4\nvllm==0.8.5  # tested\n")])
    assert pin.version == "0.8.5" and pin.pin_path == "/p/requirements.txt" and pin.pin_line == 2
    assert "requirements.txt" in pin.reason
    assert release.project_pin([("/p/requirements.txt", "vllm>=0.8\n")]) is None
    lock = '[[package]]\nname = "torch"\nversion = "2.4.0"\n\n[[package]]\nname = "vllm"\nversion = "0.6.3.post1"\n'
    assert release.project_pin([("/p/uv.lock", lock)]).version == "0.6.3.post1"
    toml = '[project]\nname = "x"\ndependencies = [\n  "vllm[audio]==0.10.1.1",\n  "fastapi",\n]\n'
    assert release.project_pin([("/p/pyproject.toml", toml)]).version == "0.10.1.1"
    poetry = '[tool.poetry.dependencies]\npython = "^3.11"\nvllm = "0.9.0"\n'
    assert release.project_pin([("/p/pyproject.toml", poetry)]).version == "0.9.0"
    assert release.project_pin([("/p/pyproject.toml", '[tool.poetry.dependencies]\nvllm = "^0.9.0"\n')]) is None
    # the first file that pins decides (uv.lock before requirements.txt)
    both = release.project_pin([("/p/uv.lock", lock), ("/p/requirements.txt", "vllm==0.8.5\n")])
    assert both.version == "0.6.3.post1"
    old = release.project_pin([("/p/requirements.txt", "vllm==0.4.2\n")])
    assert old.outside == "older" and old.version == OLDEST and old.asked == "0.4.2"
