"""The engine re-checks only what an edit touched, and stays equal to a fresh lint."""

from __future__ import annotations

from servelint.engine import Engine
from servelint.rules import rules_for
from servelint.settings import Settings

SETTINGS = Settings(vllm_version="0.33.0", use_installed_vllm=False)

DOC = """#!/bin/sh
vllm serve Qwen/Qwen3-8B --port 8000 --max-modl-len 4096 &
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --dtype bf16 &
vllm serve mistralai/Mistral-7B-Instruct-v0.3 --port 8002 &
"""


def _fresh(text: str):
    return [(d.span, d.code, d.message) for d in Engine(SETTINGS).lint("run.sh", text).diagnostics]


def _view(result):
    return [(d.span, d.code, d.message) for d in result.diagnostics]


# What each launch of DOC sets (``Rule.requires``: only the rules a launch
# can trigger run on it).
SETS = (frozenset({"port", "max_modl_len"}), frozenset({"port", "dtype"}), frozenset({"port"}))


def _launch_rules(present: frozenset[str]) -> int:
    return sum(r.applies_to("0.33.0") for r in rules_for(present))


def test_unchanged_text_runs_no_rule():
    engine = Engine(SETTINGS)
    engine.lint("run.sh", DOC)
    assert engine.rule_evaluations == sum(_launch_rules(p) for p in SETS)
    before = engine.rule_evaluations
    engine.lint("run.sh", DOC)
    assert engine.rule_evaluations == before


def test_an_edit_reruns_only_the_touched_launch_and_the_rules_that_read_it():
    engine = Engine(SETTINGS)
    engine.lint("run.sh", DOC)
    before = engine.rule_evaluations
    # The first edit of a launch runs all its rules (what each rule read is
    # recorded from then on)...
    first = DOC.replace("--port 8001", "--port 8011")
    last = engine.lint("run.sh", first)
    assert engine.rule_evaluations - before == _launch_rules(SETS[1])
    before = engine.rule_evaluations
    edited = DOC.replace("--port 8001", "--port 8021")
    # ... and the next: only launch 2 changed, and only in --port: the rules
    # that read every flag (or --port) re-run; the others reuse theirs.
    reads = {name: entry[0] for name, entry in last.launches[1].by_rule.items()}
    touched = {("flags",), ("flag", "port"), ("args",), ("*",)}
    rerun = sorted(name for name, keys in reads.items() if keys & touched)
    assert 0 < len(rerun) < len(reads)  # some rules read every flag, most read a few
    result = engine.lint("run.sh", edited)
    assert engine.rule_evaluations - before == len(rerun)
    assert _view(result) == _fresh(edited)


def test_a_line_inserted_above_shifts_diagnostics_without_rerunning_rules():
    engine = Engine(SETTINGS)
    first = engine.lint("run.sh", DOC)
    before = engine.rule_evaluations
    edited = DOC.replace("#!/bin/sh\n", "#!/bin/sh\n# a new comment line\n")
    result = engine.lint("run.sh", edited)
    assert engine.rule_evaluations == before
    assert _view(result) == _fresh(edited)
    old_lines = [first.source.position(d.span.start)[0] for d in first.diagnostics]
    new_lines = [result.source.position(d.span.start)[0] for d in result.diagnostics]
    assert new_lines == [line + 1 for line in old_lines]


def test_many_random_edits_end_equal_to_a_fresh_lint():
    import random

    rng = random.Random(7)
    engine = Engine(SETTINGS)
    text = DOC
    for _ in range(200):
        i = rng.randrange(len(text) + 1)
        if rng.random() < 0.5 and len(text) > 1:
            j = min(len(text), i + rng.randrange(1, 4))
            text = text[:i] + text[j:]
        else:
            text = text[:i] + rng.choice(["-", " ", "x", "\\\n", "1", "--port 9 ", "'"]) + text[i:]
        got = _view(engine.lint("run.sh", text))
        assert got == _fresh(text)


def test_a_launch_moved_by_an_edit_above_is_read_at_its_new_place():
    # Hover and completion find the flag under the cursor in the launch's
    # reading; a launch an edit moved (with or without findings) must be
    # read where it is now, not where it was.
    engine = Engine(SETTINGS)
    engine.lint("run.sh", DOC)
    for edited in (DOC.replace("#!/bin/sh\n", "#!/bin/sh\n# a new line\n"),
                   DOC.replace("--port 8000", "--port 80000")):
        result = engine.lint("run.sh", edited)
        for launch_result in result.launches:
            inv = launch_result.invocation
            for flag in inv.flags:
                assert edited[flag.name_span.start : flag.name_span.end] == flag.written, (flag, edited)
                found = inv.flag_at(flag.name_span.start)
                assert found is not None and found[0] is flag


def test_typing_in_a_switch_value_updates_the_finding():
    # The value argparse rejects (`--enforce-eager=<value>`) is in the
    # finding's place and message: a rule reading the flag must see it change
    # (from the long fuzz at 696c5bb, engine-incremental-wrong-661ee8f358ee).
    engine = Engine(SETTINGS)
    texts = [f"#!/bin/sh\nvllm serve Qwen/Qwen3-8B --port 8000 --enforce-eager={v}\n" for v in ("ab", "abc", "abcd")]
    for text in texts:
        result = engine.lint("run.sh", text)
    [d] = [d for d in result.diagnostics if d.code == "SL103"]
    assert texts[-1][d.span.start:d.span.end] == "abcd"
    assert "ignored explicit argument 'abcd'" in d.message
    assert _view(result) == _fresh(texts[-1])


def test_a_launch_edited_into_the_words_of_another_takes_its_findings():
    # The edited launch is looked up among the last lint's launches by its
    # text: here it now reads as the second one does, so no rule runs.
    engine = Engine(SETTINGS)
    engine.lint("run.sh", DOC)
    before = engine.rule_evaluations
    edited = DOC.replace("mistralai/Mistral-7B-Instruct-v0.3 --port 8002 &",
                         "meta-llama/Llama-3.1-8B-Instruct --port 8001 --dtype bf16 &")
    result = engine.lint("run.sh", edited)
    assert engine.rule_evaluations == before
    assert _view(result) == _fresh(edited)
    assert [d.code for d in result.diagnostics].count("SL103") == 2
