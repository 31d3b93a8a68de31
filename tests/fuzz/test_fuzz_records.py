"""Records are data from outside: any record file loads (bad records become
located problems), any pattern matches within its time limit, and any
exampleFix either yields edits inside the user's launch or no fix at all."""

from __future__ import annotations

import json
import time

from fuzz_support import (
    INTERNAL_MARKERS,
    JUNK,
    MODELS,
    any_document,
    document,
    fuzz_settings,
    mutated,
    shell_launch,
    strict_parsers,
)
from hypothesis import given
from hypothesis import strategies as st

from servelint import knowledge
from servelint.engine import Engine
from servelint.fixes.apply import apply_edits
from servelint.fixes.apply_diff import fix_for
from servelint.fixes.example_fix import _parse_alternatives
from servelint.records import MATCH_TIMEOUT_S, RecordStore
from servelint.settings import Settings

# -- exampleFix ---------------------------------------------------------------


@st.composite
def example_fix(draw) -> str:
    parts = [draw(st.sampled_from(["# before", "# before (architecture='Mamba2ForCausalLM')", "#before", "# Before:", ""])),
             draw(shell_launch())]
    for _ in range(draw(st.integers(0, 3))):
        parts.append(draw(st.sampled_from(["# after", "# or", "# after (flag removed)", "# OR", "#after"])))
        parts.append(draw(shell_launch() | st.sampled_from(["", "vllm serve m", "# nothing", *JUNK])))
    return "\n".join(parts)


@fuzz_settings(ci=40)
@given(mutated(example_fix()), st.sampled_from(knowledge.RELEASES))
def test_example_fix_reader(text, version):
    with document("exampleFix"), strict_parsers():
        # The reader, not the cached wrapper that logs and swallows: an
        # exception here is a bug even though users would never see it.
        _parse_alternatives(text, version)


@fuzz_settings(ci=30)
@given(example_fix(), any_document())
def test_example_fix_applied_to_any_launch(fix_text, doc):
    name, text = doc
    version = "0.33.0"
    alts = _parse_alternatives(fix_text, version) or []
    with document("exampleFix-apply"), strict_parsers():
        result = Engine(Settings(vllm_version=version, use_installed_vllm=False)).lint(name, text)
        for lr in result.launches:
            inv = lr.invocation
            for alt in alts:
                fx = fix_for(inv, text, name, alt, "fuzz")
                if fx is None:
                    continue
                mine = [e for e in fx.edits if e.path == name]
                for e in mine:
                    assert 0 <= e.span.start <= e.span.end <= len(text), (fx.title, e)
                fixed = apply_edits(text, mine)
                again = Engine(Settings(vllm_version=version, use_installed_vllm=False)).lint(name, fixed)
                assert not [d for d in again.diagnostics if d.code == "SL000"], (fx.title, fixed)


# -- record files -------------------------------------------------------------

_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_PATTERNS = st.sampled_from([
    "(a+)+$", "(x+x+)+y", "unrecognized arguments: (.*)", "[", "(?P<x>", "\\", "(?i)--use-replayssm.*",
    "(.*a){20}", "^(([a-z])+.)+[A-Z]([a-z])+$", "a{100000}", "(?<=a+)b", "\\p{L}+", ".*",
]) | st.text(max_size=30)


@st.composite
def record(draw) -> object:
    rec = {
        "id": draw(st.text(min_size=1, max_size=12) | st.integers() | st.none()),
        "errorMessage": draw(st.text(max_size=40) | _JSONISH),
        "messagePattern": draw(_PATTERNS | _JSONISH),
        "documentation": draw(st.text(max_size=40) | _JSONISH),
        "solutions": draw(st.lists(st.text(max_size=20), max_size=3) | _JSONISH),
        "exampleFix": draw(example_fix() | _JSONISH),
        "validationCode": "import os; os.system('touch /tmp/servelint-fuzz-ran')",
    }
    for key in draw(st.lists(st.sampled_from(sorted(rec)), max_size=3)):
        rec.pop(key, None)
    extra = draw(st.dictionaries(st.text(max_size=10), _JSONISH, max_size=3))
    rec.update(extra)
    return draw(st.sampled_from([rec, {"record": rec}, [rec], {"records": [rec, rec]}]))


def _serialise(obj, how: int) -> str:
    text = json.dumps(obj, default=str)
    if how == 1:
        return text + "\n" + text  # JSON lines
    if how == 2:
        return text[: len(text) // 2]  # cut off
    return text


@fuzz_settings(ci=40)
@given(st.lists(record(), min_size=1, max_size=3), st.integers(0, 2), st.sampled_from(["json", "jsonl", "txt"]),
       st.lists(st.text(max_size=60) | st.sampled_from(["a" * 40 + "!", "unrecognized arguments: --x", "x" * 30]),
                max_size=3))
def test_record_files_load_and_match(tmp_path_factory, records, how, ext, messages):
    path = tmp_path_factory.mktemp("records") / f"user.{ext}"
    path.write_text("\n".join(_serialise(r, how) for r in records))
    with document("records"):
        store = RecordStore.load([str(path)])
        for p in store.problems:
            assert str(path) in str(p)
        for message in messages:
            started = time.perf_counter()
            store.match(message)
            # Each pattern gets MATCH_TIMEOUT_S once, then is disabled.
            assert time.perf_counter() - started < 5 + len(store.records) * MATCH_TIMEOUT_S * 4


@fuzz_settings(ci=15)
@given(st.lists(record(), min_size=1, max_size=2), any_document())
def test_hostile_records_in_a_lint(tmp_path_factory, records, doc):
    """User records join findings by message, and their fixes are applied to
    the user's launches: nothing in them can crash a lint."""
    name, text = doc
    path = tmp_path_factory.mktemp("records") / "user.json"
    path.write_text(json.dumps([r for r in records if isinstance(r, dict)] or [{}], default=str))
    # A pattern that matches every finding, so the records' exampleFix is used.
    catch_all = {"id": "fuzz-all", "errorMessage": "x", "messagePattern": ".*", "documentation": "d",
                 "solutions": ["s"], "exampleFix": f"# before\nvllm serve {MODELS[0]} --enforce-eager --dtype half\n# after\n"
                               f"vllm serve {MODELS[0]} --dtype bfloat16\n# or\nvllm serve {MODELS[1]} --max-model-len 4096\n"}
    (path.parent / "all.json").write_text(json.dumps([catch_all]))
    with document("records-lint"), strict_parsers():
        result = Engine(Settings(records=(str(path.parent),), use_installed_vllm=False)).lint(name, text)
        for d in result.diagnostics:
            assert d.code != "SL000" and not any(m in d.message for m in INTERNAL_MARKERS), d.message
