"""Checks of the harness itself (``pytest bench``): inputs are deterministic
and the edit sequences do what the measurements assume.  No timing here."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
from common import percentile  # noqa: E402


def test_generators_are_deterministic_and_ascii():
    for make in (gen.shell_script, gen.k8s_multidoc):
        a, b = make(2000, seed=4), make(2000, seed=4)
        assert a.text == b.text
        assert a.text.isascii()
        assert make(2000, seed=5).text != a.text
        assert abs(a.lines - 2000) < 100


def test_sizes_follow_the_request():
    for n in (1_000, 10_000):
        assert abs(gen.shell_script(n).lines - n) <= 60
        assert abs(gen.k8s_multidoc(n).lines - n) <= 60


def test_toggle_edits_come_back_to_the_text_and_stay_in_the_marked_word():
    doc = gen.shell_script(2000)
    text = doc.text
    at = text.index(doc.marker)
    for k, e in enumerate(gen.toggle_edits(text, doc.marker, 10)):
        assert at < e[0] < at + len(doc.marker)
        text = gen.apply(text, e)
        if k % 2 == 1:
            assert text == doc.text


def test_typing_edits_are_single_characters_and_undo_themselves():
    for doc in (gen.shell_script(2000), gen.k8s_multidoc(5000)):
        edits = gen.typing_edits(doc.text, doc.marker, 200, doc.kind)
        text = doc.text
        phrase_cycle = None
        for k, (at, dele, ins) in enumerate(edits):
            assert dele + len(ins) == 1
            text = gen.apply(text, (at, dele, ins))
            if text == doc.text and phrase_cycle is None:
                phrase_cycle = k + 1
        assert phrase_cycle is not None and phrase_cycle % 2 == 0


def test_repository_mix(tmp_path):
    by = gen.repository(str(tmp_path), 60, seed=2)
    assert sum(len(v) for v in by.values()) == 60
    assert set(by) == {"shell", "config", "k8s", "compose", "dockerfile"}
    # Only the latency files carry the marked typo.
    for files in by.values():
        for f in files:
            assert gen.MARKED_WORD not in open(f).read()


def test_verdict_cases_include_the_seed_records():
    seeds = [c for c in gen.VERDICT_CASES if c.name.startswith("seed")]
    assert [c.argv[:2] for c in seeds] == [["mamba2", "--use-replayssm"], ["nemotronh", "--use-replayssm"]]
    assert all(c.version == "0.28.0" for c in seeds)
    assert "servelint: vllm=0.28.0" in seeds[0].shell_text()
    assert "mistralai/Mamba-Codestral-7B-v0.1" in seeds[0].shell_text()


def test_percentile_is_nearest_rank():
    values = list(range(1, 1001))
    assert percentile(values, 50) == 500
    assert percentile(values, 99) == 990
    assert percentile([3.0], 99) == 3.0


def test_files_with_a_finding_in_every_launch():
    from servelint.engine import Engine
    from servelint.settings import Settings

    script, pods = gen.shell_errors(2000), gen.k8s_list(300)
    assert script.text == gen.shell_errors(2000).text and pods.text == gen.k8s_list(300).text
    assert script.text.isascii() and pods.text.isascii()
    for doc, path, launches in ((script, "/tmp/bench-errors.sh", 333), (pods, "/tmp/bench-list.yaml", 300)):
        result = Engine(Settings(max_launches=0)).lint(path, doc.text)
        assert len(result.launches) == launches
        assert sorted(len(lr.diagnostics) for lr in result.launches) == [1] * launches
        assert len(result.diagnostics) == launches
        # The edit sequences find their word once, mid-file.
        at = doc.text.index(doc.marker)
        assert abs(at / len(doc.text) - 0.5) < 0.05
        gen.toggle_edits(doc.text, doc.marker, 4)
        gen.typing_edits(doc.text, doc.marker, 4, doc.kind)


def test_keystroke_work_types_its_edits_in_both_modes():
    import keystroke_work

    for engine_only in (True, False):
        keystroke_work.type_edits("shell-2000-errors", 1, engine_only)
