"""A keystroke reads the launch it changed, not the launches it moved.

The re-parse moves every launch below an edit without shifting its words
(``model.MovedLaunch``: they are shifted when first read); the engine keeps
their findings, moved, without reading them.  Reading one field of each
(``Launch.build``, say) would shift every launch below the edit on every
keystroke: the keystroke would cost the file, not the launch.
"""

from __future__ import annotations

import pytest

from servelint.engine import Engine
from servelint.model import MovedLaunch
from servelint.settings import Settings

SETTINGS = Settings(vllm_version="0.33.0", use_installed_vllm=False, max_launches=0)

SCRIPT = "#!/bin/sh\n" + "".join(f"vllm serve Qwen/Qwen3-8B --port {8000 + i} --max-modl-len 4096 &\n"
                                 for i in range(30))

MANIFEST = "---\n".join(
    f"""apiVersion: v1
kind: Pod
metadata:
  name: vllm-{i}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      args: ["Qwen/Qwen3-8B", "--port", "{8000 + i}", "--max-modl-len", "4096"]
"""
    for i in range(30)
)

@pytest.mark.parametrize("name, text, typed_after", [
    ("run.sh", SCRIPT, "--port 8000"),
    ("pods.yaml", MANIFEST, '"--port", "8000'),
])
def test_the_launches_an_edit_moved_stay_unread(name, text, typed_after):
    engine = Engine(SETTINGS)
    first = engine.lint(name, text)
    assert len(first.launches) == 30
    assert all(any(d.code == "SL101" for d in lr.diagnostics) for lr in first.launches)
    at = text.index(typed_after) + len(typed_after)
    edited = text[:at] + "1" + text[at:]  # the first launch's port: 80001
    result = engine.lint(name, edited)

    below = [lr.launch for lr in result.launches[1:]]
    assert all(isinstance(launch, MovedLaunch) for launch in below)
    assert [k for k, launch in enumerate(below, 1) if not launch.unread] == []
    # Their findings moved with them all the same.
    fresh = Engine(SETTINGS).lint(name, edited)
    assert [(d.span, d.code, d.message) for d in result.diagnostics] == [
        (d.span, d.code, d.message) for d in fresh.diagnostics]


@pytest.mark.parametrize("name, text, typed_after", [
    ("run.sh", SCRIPT, "--port 8015"),
    ("pods.yaml", MANIFEST, '"--port", "8015'),
])
def test_a_keystroke_checks_only_the_launch_it_changed(name, text, typed_after, monkeypatch):
    """The launches above and below the edit are kept as the last lint
    found them (``reuse.Untouched``), without the full round of checks."""
    engine = Engine(SETTINGS)
    engine.lint(name, text)
    at = text.index(typed_after) + len(typed_after)
    edited = text[:at] + "1" + text[at:]
    engine.lint(name, edited)  # the first edit measures where each launch's findings point
    checked = _count_full_checks(monkeypatch)
    again = edited[:at] + "2" + edited[at + 1:]
    result = engine.lint(name, again)
    assert checked == [15]
    fresh = Engine(SETTINGS).lint(name, again)
    assert [(d.span, d.code, d.message, d.fixes) for d in result.diagnostics] == [
        (d.span, d.code, d.message, d.fixes) for d in fresh.diagnostics]


@pytest.mark.parametrize("name, text, typed_after", [
    ("run.sh", SCRIPT, "--port 8000"),
    ("pods.yaml", MANIFEST, '"--port", "8000'),
])
def test_moved_findings_are_copied_once_when_read(name, text, typed_after, monkeypatch):
    """The findings of the launches below an edit wait to be moved until
    something reads them (``reuse.MovedResult``): five keystrokes copy none,
    and reading the document's diagnostics then copies each once, at the
    place five keystrokes moved it to."""
    from servelint.engine import reuse

    engine = Engine(SETTINGS)
    engine.lint(name, text)
    at = text.index(typed_after) + len(typed_after)
    edited = text[:at] + "1" + text[at:]
    engine.lint(name, edited)  # the first edit measures where each launch's findings point
    copies: list[int] = []
    shifted = reuse._shifted

    def counting(d, path, delta):
        copies.append(delta)
        return shifted(d, path, delta)

    monkeypatch.setattr(reuse, "_shifted", counting)
    for k in range(5):
        edited = edited[:at] + "1" + edited[at:]
        result = engine.lint(name, edited)
        assert copies == [], f"keystroke {k + 1} copied the findings of {len(copies)} launches it moved"
    assert result.in_launch_order
    shown = [(d.span, d.code, d.message, d.fixes) for d in result.diagnostics]
    assert copies == [5] * 29  # the 29 launches below, each moved 5 characters in one copy
    fresh = Engine(SETTINGS).lint(name, edited)
    assert shown == [(d.span, d.code, d.message, d.fixes) for d in fresh.diagnostics]


def test_findings_out_of_launch_order_are_sorted_as_before():
    """A launch whose findings are not in document order (two rules, the
    later place found first) makes the document's list the sorted one, as a
    fresh lint gives it, after a keystroke too."""
    script = "#!/bin/sh\n" + "".join(
        f"vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 95 --max-modl-len 4096 --port {8000 + i} &\n"
        for i in range(6))
    engine = Engine(SETTINGS)
    engine.lint("run.sh", script)
    at = script.index("--port 8000") + len("--port 8000")
    edited = script[:at] + "1" + script[at:]
    result = engine.lint("run.sh", edited)
    # (The unknown flag is found first, at the later place.)
    assert [d.span.start for d in result.launches[0].diagnostics] != sorted(
        d.span.start for d in result.launches[0].diagnostics)
    assert not result.in_launch_order
    fresh = Engine(SETTINGS).lint("run.sh", edited)
    got = [(d.span, d.code, d.message) for d in result.diagnostics]
    assert got == [(d.span, d.code, d.message) for d in fresh.diagnostics]
    assert got == sorted(got, key=lambda t: (t[0].start, t[0].end, t[1], t[2]))
    assert len({t[1] for t in got}) >= 2


def test_a_line_typed_above_the_pods_does_not_check_them_again(monkeypatch):
    """Each pod's release comes from its own image, on a line the edit moves:
    the release is chosen again (the same one, for the same reason) and the
    pods below keep their findings, moved a line down."""
    engine = Engine(SETTINGS)
    engine.lint("pods.yaml", MANIFEST)
    at = MANIFEST.index("name: vllm-15\n") + len("name: vllm-15\n")
    edited = MANIFEST[:at] + "  labels: {}\n" + MANIFEST[at:]
    engine.lint("pods.yaml", edited)
    checked = _count_full_checks(monkeypatch)
    again = edited[:at] + "  labels: {app: x}\n\n" + edited[at + len("  labels: {}\n"):]
    result = engine.lint("pods.yaml", again)
    assert checked == [15]
    fresh = Engine(SETTINGS).lint("pods.yaml", again)
    assert [(d.span, d.code, d.message, d.fixes) for d in result.diagnostics] == [
        (d.span, d.code, d.message, d.fixes) for d in fresh.diagnostics]
    assert [lr.release for lr in result.launches] == [lr.release for lr in fresh.launches]


def _count_full_checks(monkeypatch) -> list[int]:
    """The index of each launch ``Engine._lint_launch`` checks from now on."""
    checked: list[int] = []
    full = Engine._lint_launch

    def counting(self, run, index, launch):
        checked.append(index)
        return full(self, run, index, launch)

    monkeypatch.setattr(Engine, "_lint_launch", counting)
    return checked
