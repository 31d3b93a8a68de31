"""Any text → a ParsedDocument, never an exception, spans always in range."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from servelint.parse.dockerfile import parse_dockerfile_document
from servelint.parse.shell import parse_shell_document

# Fragments that exercise the parser's paths far more often than random text.
_FRAGMENTS = [
    "vllm serve ", "python -m vllm.entrypoints.openai.api_server ", "docker run ",
    "vllm/vllm-openai ", "--model ", "--port=", "m ", "$X ", "${X:-d} ", "${A[@]} ",
    '"$@" ', "$(", ")", "${", "}", '"', "'", "\\\n", "\n", " ", "&& ", "| ", "; ",
    "<<EOF\n", "EOF\n", "bash -c ", "X=1 ", "export Y=2\n", "A=(", "é", "🚀", "\t",
    "if x; then ", "fi\n", "f() { ", " }", "# c\n", "$((1+", "`", "eval ", "--config ",
    "CMD ", "ENTRYPOINT ", "FROM vllm/vllm-openai\n", '["a", ', '"\\u00e9"]', "ENV A=b\n",
]
_TEXT = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=4)), max_size=30
).map("".join)


def _check(doc, text: str) -> None:
    n = len(text)
    for launch in doc.launches:
        spans = [launch.span, launch.entry_span] + [p.span for p in launch.problems]
        for s in spans:
            assert 0 <= s.start <= s.end <= n
        for w in list(launch.args) + list(launch.opaque):
            assert 0 <= w.span.start <= w.span.end <= n
            if w.offsets is not None:
                offs = list(w.offsets)
                assert len(offs) == len(w.text) + 1 or not w.text
                assert all(0 <= o <= n for o in offs)
                assert all(a <= b for a, b in zip(offs, offs[1:]))
            else:
                assert 0 <= w.base and w.base + len(w.text) <= n
    for p in doc.problems:
        assert 0 <= p.span.start <= p.span.end <= n


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_shell_never_raises_and_spans_stay_in_range(text):
    import os

    os.environ["SERVELINT_STRICT"] = "1"  # let a bug surface instead of an empty result
    try:
        _check(parse_shell_document("x.sh", text), text)
    finally:
        del os.environ["SERVELINT_STRICT"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_dockerfile_never_raises_and_spans_stay_in_range(text):
    import os

    os.environ["SERVELINT_STRICT"] = "1"
    try:
        _check(parse_dockerfile_document("Dockerfile", text), text)
    finally:
        del os.environ["SERVELINT_STRICT"]
