"""Crashes and slowdowns the fuzzers and hostile-input tests found, kept as
plain tests so they never come back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from servelint.engine import Engine
from servelint.parse import parse_document
from servelint.settings import Settings

# Found by test_fuzz_records: the "or" alternative removes --enforce-eager and
# --dtype; a launch with only --enforce-eager made the fix builder index an
# empty list, and the IndexError escaped the rule and failed the whole lint.
TWO_REMOVALS = {
    "id": "two-removals", "errorMessage": "x", "messagePattern": "unrecognized arguments", "documentation": "d",
    "solutions": ["s"],
    "exampleFix": "# before\nvllm serve Qwen/Qwen3-8B --enforce-eager --dtype half\n# after\n"
                  "vllm serve Qwen/Qwen3-8B --dtype bfloat16\n# or\nvllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096\n",
}
LAUNCH = "vllm serve m --enforce-eager --max-modl-len 3\n"


def _records(tmp_path) -> str:
    path = tmp_path / "records.json"
    path.write_text(json.dumps([TWO_REMOVALS]))
    return str(path)


def test_a_record_fix_that_cannot_apply_keeps_the_finding(tmp_path):
    result = Engine(Settings(records=(_records(tmp_path),), use_installed_vllm=False)).lint("a.sh", LAUNCH)
    assert [(d.code, d.record) for d in result.diagnostics] == [("SL101", "two-removals")]
    assert [f.title for f in result.diagnostics[0].fixes][:1] == ["Replace with --max-model-len"]


def test_a_record_fix_removing_a_flag_the_launch_lacks_is_not_offered(tmp_path):
    from servelint.fixes.apply_diff import fix_for
    from servelint.fixes.example_fix import alternatives

    inv = Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False)).lint("a.sh", LAUNCH).launches[0].invocation
    alts = alternatives("two-removals", TWO_REMOVALS["exampleFix"], "0.33.0")
    assert len(alts) == 2
    assert fix_for(inv, LAUNCH, "a.sh", alts[1], "two-removals") is None


# Found by tests/reliability (a 100 KB launch line): every value of every flag
# asked "is this the flag that decides?" by scanning all flags, 9,000² steps.
def test_a_launch_with_thousands_of_flags_is_linear():
    # Counted, not timed: the Python lines a lint runs.  From 150 to 1,200
    # flags they grow 7x; with the quadratic scan put back, 33x.
    def lines_run(n: int) -> int:
        text = "vllm serve Qwen/Qwen3-8B " + "--port 8000 " * n + "\n"
        engine = Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False))
        count = 0

        def trace(frame, event, arg):
            nonlocal count
            count += event == "line"
            return trace

        outer = sys.gettrace()  # a coverage tool's, say
        sys.settrace(trace)
        try:
            engine.lint("x.sh", text)
        finally:
            sys.settrace(outer)
        return count

    lines_run(10)  # first use: tables and caches
    small, large = lines_run(150), lines_run(1200)
    assert large < 12 * small, (small, large)


# Found by test_fuzz_parsers (shell-incremental): the edit turned the comment
# after `MODEL=...` into an argument (`\#`), so MODEL was no longer assigned;
# the re-read region started at the line's start, inside the assignment,
# from a snapshot taken after it, and kept MODEL set.
def test_an_edit_after_an_assignment_on_its_line_rereads_the_assignment():
    from servelint.parse import parse_document
    from servelint.parse.dump import dump_document

    text = 'MODEL="Qwen/Qwen3-8B"   # 模型\nvllm serve "$MODEL" --port 8000\n'
    doc = parse_document("run.sh", text)
    at = text.index("  # ")
    edited = text[:at] + "\\" + text[at + 2:]
    incremental = parse_document("run.sh", edited, previous=doc)
    assert dump_document(incremental, edited) == dump_document(parse_document("run.sh", edited), edited)
    # MODEL is now only a prefix of the `#` command: an input of the launch.
    assert [i.name for i in incremental.launches[0].inputs] == ["MODEL"]


# Found by test_fuzz_parsers (shell-incremental): typing `<<EOF` into a
# statement starts a heredoc that swallows the rest of the script, but the
# re-read region ended at the statement's line, so the launches after it
# were kept.
def test_typing_an_unterminated_heredoc_swallows_the_launches_after_it():
    from servelint.parse import parse_document

    text = 'PORT=8000\nbash -c "vllm serve Qwen/Qwen3-8B --port $PORT"\nvllm serve facebook/opt-125m\n'
    doc = parse_document("run.sh", text)
    assert len(doc.launches) == 2
    at = text.index('"vllm')
    edited = text[:at] + "<<EOF\n" + text[at:]
    assert parse_document("run.sh", edited, previous=doc).launches == parse_document("run.sh", edited).launches == []


# -- found by the long run (tests/fuzz/longrun.py) ------------------------------------
#
# Found by the long run; each was open until the engine or the shell
# re-parse was fixed, and stays here as a plain regression test.


def _lint(name: str, text: str, engine: Engine | None = None):
    return (engine or Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False))).lint(name, text)


def _shown(result) -> list[tuple]:
    return [(d.code, d.span.start, d.span.end, d.message) for d in result.diagnostics]


# Fixed: the engine shows a finding two launches share once.
def test_an_unclosed_substitution_holding_two_launches_is_reported_once():
    text = "a$(vllm serve m\nvllm serve b\n"
    assert _shown(_lint("run.sh", text)) == [("SL001", 1, 3, "unclosed `$(`")]


def test_a_bad_flag_in_a_variable_two_launches_use_is_reported_once():
    text = '#!/bin/bash\nCOMMON="--dtype --aux-output-config"\nvllm serve m $COMMON\nvllm serve m $COMMON\n'
    shown = _shown(_lint("run.sh", text))
    assert len(shown) == len(set(shown)), shown


# Fixed by 2363807 (a launch the edit did not touch is reused by identity).
def test_typing_an_unclosed_substitution_above_launches_shows_it():
    engine = Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False))
    _lint("run.sh", "vllm serve m\nvllm serve b\n", engine)
    edited = "a$(vllm serve m\nvllm serve b\n"
    assert _shown(_lint("run.sh", edited, engine)) == _shown(_lint("run.sh", edited))
    assert "SL001" in [code for code, *_ in _shown(_lint("run.sh", edited, engine))]


# Fixed: words the launch could not resolve are an input of every rule.
def test_editing_a_dockerfile_cmd_away_leaves_no_stale_diagnostic():
    engine = Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False))
    before = 'FROM x\nENTRYPOINT ["vllm", "serve"]\nCMD ["--port", "8000"]\n'
    assert [code for code, *_ in _shown(_lint("Dockerfile", before, engine))] == ["SL008"]
    edited = 'FROM x\nENTRYPOINT ["vllm", "serve"]\nC["--port", "8000"]\n'
    assert _shown(_lint("Dockerfile", edited, engine)) == _shown(_lint("Dockerfile", edited))


# Fixed: the re-parse leaves words written above the edit where they are.
def test_an_edit_between_an_array_append_and_its_use_keeps_the_finding_in_place():
    from servelint.parse import parse_document
    from servelint.parse.dump import dump_document

    text = ('ARGS+=(--max-modl-len 1)\nvllm serve Qwen/Qwen3-8B "${DYN[@]}" --port 8001\n'
            'vllm serve Qwen/Qwen3-8B "${ARGS[@]}" --port 8000\n')
    edited = text.replace("vllm serve Qwen/Qwen3-8B", "vllm serve--x", 1)
    engine = Engine(Settings(vllm_version="0.33.0", use_installed_vllm=False))
    engine.lint("run.sh", text)
    where = text.index("--max-modl-len")
    # Where the editor underlines the typo: on it, not 11 characters earlier.
    assert [(d.code, d.span.start, d.span.end) for d in engine.lint("run.sh", edited).diagnostics
            if d.code == "SL101" and d.message.startswith("unknown flag --max-modl-len")] == [
        ("SL101", where, where + len("--max-modl-len"))]
    incremental = parse_document("run.sh", edited, previous=parse_document("run.sh", text))
    assert dump_document(incremental, edited) == dump_document(parse_document("run.sh", edited), edited)


# Fixed: tree-sitter-bash joins a line starting with a backslash to the
# command above (the line break inside the first joined word); the parser
# splits such a command where a shell ends it and reads each line alone.
def test_a_line_starting_with_a_backslash_is_a_new_command():
    text = 'vllm serve m --port 1\n\\"x\n'
    assert _shown(_lint("run.sh", text)) == []


# -- saved inputs of the long run, replayed ---------------------------------------------
#
# tests/fuzz/regressions/ holds inputs the long run saved (``<target>-<kind>-<digest>.txt``
# and the ``.json`` that repeats it); each must now pass its target's check.
# Those still open are listed with where their fix belongs: they must still
# fail with the finding (``Crash``), not with an exception; one that passes
# shows as XPASS in the summary and leaves OPEN.

REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("*.txt"))

# Saved inputs whose check still fails, with why (none now: the last one,
# shell-incremental-wrong-bd65f32dc086, a line starting with a backslash,
# was closed by the split in ``shell._joined_lines``).
OPEN: dict[str, str] = {}


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_a_saved_input_passes_its_check(path, request):
    import longrun

    if path.stem in OPEN:
        request.applymarker(pytest.mark.xfail(raises=longrun.Crash, reason=OPEN[path.stem]))
    longrun.replay(path)


def test_every_open_finding_has_its_input():
    if not OPEN:
        pytest.skip("no open findings")
    assert [k for k in OPEN if not (Path(__file__).parent / "regressions" / f"{k}.txt").exists()] == []


def test_assignments_alone_on_the_line_above_a_launch_are_not_its_prefixes():
    # tree-sitter-bash reads `A=0 B=1` + line break + `C=0 vllm serve ...` as
    # one command with three assignments; bash ends the first statement at
    # the line break, so the launch's own prefix is C alone (from the long
    # run at 82363ee, shell-incremental-wrong-dd8aeb474af2, where the full
    # and the incremental parse disagreed on it).
    text = "#!/bin/sh\nCUDA_VISIBLE_DEVICES=0 X=1\nVLLM_USE_V2_MODEL_RUNNER=0 vllm serve m \\\n  --port 1\n"
    [launch] = parse_document("r.sh", text).launches
    assert text[launch.span.start:].startswith("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m")
    assert sorted(launch.env) == ["VLLM_USE_V2_MODEL_RUNNER"]


# Found by the long fuzz run (seed 20261203, shell-incremental): "❻" is a
# digit to str.isdigit() but not to int(), and the container port of a
# docker run's -p raised ValueError out of the parser. Every place that
# guarded int() with isdigit() now takes ASCII digits (Docker, Slurm, bash)
# or Unicode decimals (Python's own int(), as vLLM reads the value).
@pytest.mark.parametrize("text", [
    "docker run --gpus 1 -p 8080:8\u277b80 vllm/vllm-openai:v0.33.0 --model Qwen/Qwen3-8B\n",
    "docker run --gpus \u00b2 vllm/vllm-openai:v0.33.0 --model Qwen/Qwen3-8B\n",
    "vllm serve Qwen/Qwen3-8B --device-ids 0,\u00b2\n",
    "A=(x y)\nvllm serve Qwen/Qwen3-8B --served-model-name ${A[\u00b2]}\n",
])
def test_a_digit_int_refuses_is_not_a_number(text):
    result = Engine(Settings(use_installed_vllm=False)).lint("launch.sh", text)
    assert not [d for d in result.diagnostics if d.code == "SL000"], [d.message for d in result.diagnostics]
