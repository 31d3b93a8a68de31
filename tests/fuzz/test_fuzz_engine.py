"""The whole engine (parse, release choice, argv reading, every rule, record
join, fixes, suppressions) on random launches in every form.

Oracles: no rule or parser fails (SL000 is how the engine reports its own
exception, so any SL000 here is a crash); every range lies in its file; every
output format and the LSP conversion accept the result; a fix applied to the
text lints again without a crash; and an engine fed a sequence of edits ends
exactly where a fresh engine does on the final text.
"""

from __future__ import annotations

import io

from fuzz_support import INTERNAL_MARKERS, JUNK, any_document, document, fuzz_settings, half_typed, strict_parsers
from hypothesis import given
from hypothesis import strategies as st

from servelint import knowledge
from servelint.engine import Engine
from servelint.fixes.apply import apply_edits
from servelint.output import WRITERS
from servelint.settings import Settings
from servelint.text import SourceText

_SETTINGS = st.builds(
    Settings,
    vllm_version=st.sampled_from([None, *knowledge.RELEASES]),
    target=st.sampled_from(["cuda", "cuda", "cpu", "rocm", "tpu", "xpu"]),
    use_installed_vllm=st.just(False),
)


def _view(result) -> list:
    return [(d.path, d.span, d.code, d.message, d.severity, tuple(f.title for f in d.fixes)) for d in result.diagnostics]


def _check_result(result, text: str) -> None:
    sources = dict(result.sources)
    sources[result.path] = result.source

    def source_of(p: str) -> SourceText:
        return sources.get(p) or SourceText("")

    for d in result.diagnostics:
        assert d.code != "SL000" and not any(m in d.message for m in INTERNAL_MARKERS), (d.code, d.message)
        n = len(source_of(d.path).text)
        assert 0 <= d.span.start <= d.span.end <= n, (d.code, d.span, n)
        for r in d.related:
            assert 0 <= r.span.start <= r.span.end <= len(source_of(r.path).text), (d.code, r)
        for fx in d.fixes:
            for e in fx.edits:
                assert 0 <= e.span.start <= e.span.end <= len(source_of(e.path).text), (d.code, fx.title, e)
    for fmt, write in WRITERS.items():
        write(io.StringIO(), result.diagnostics, source_of)


def _lsp_convert(result) -> None:
    from servelint.lsp import convert

    sources = dict(result.sources)
    sources[result.path] = result.source
    for enc in ("utf-16", "utf-8", "utf-32"):
        def source_of(p: str, _e=enc) -> SourceText:
            return SourceText((sources.get(p) or SourceText("")).text, _e)

        for d in result.diagnostics:
            convert.to_lsp(d, source_of, lambda p: 1)


@fuzz_settings(ci=25)
@given(any_document(), _SETTINGS, st.randoms(use_true_random=False))
def test_engine_on_random_launches(doc, settings, rnd):
    name, text = doc
    for text in half_typed(text, rnd):
        _engine_once(name, text, settings)


def _engine_once(name: str, text: str, settings: Settings) -> None:
    with document("engine"), strict_parsers():
        result = Engine(settings).lint(name, text)
        _check_result(result, text)
        _lsp_convert(result)
        # The first fix of each kind of finding, applied: what the user gets
        # after a quick fix must lint without a crash too.
        tried = set()
        for d in result.diagnostics:
            for fx in d.fixes:
                if d.code in tried or any(e.path != name for e in fx.edits):
                    continue
                tried.add(d.code)
                fixed = apply_edits(text, fx.edits)
                _check_result(Engine(settings).lint(name, fixed), fixed)


@fuzz_settings(ci=15)
@given(any_document(), st.lists(
    st.tuples(st.integers(0, 5_000), st.integers(0, 8), st.sampled_from(JUNK) | st.text(max_size=4)
              | st.sampled_from(["--port 9 ", "--max-modl-len 1 ", " \\\n  --dtype half", "\n", "--tp 2 "])),
    min_size=1, max_size=8))
def test_incremental_engine_equals_a_fresh_lint(doc, edits):
    name, text = doc
    settings = Settings(vllm_version="0.33.0", use_installed_vllm=False)
    engine = Engine(settings)
    with strict_parsers():
        engine.lint(name, text)
        for at, cut, insert in edits:
            with document("engine-incremental"):
                at %= len(text) + 1
                text = text[:at] + insert + text[at + cut:]
                got = engine.lint(name, text)
                assert _view(got) == _view(Engine(settings).lint(name, text))
