"""The YAML layer: scalar offset maps, documents, merges, hostile input."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from servelint.parse import yamlnodes as yn


def _scalars(node, seen=None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        yield node
    elif isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _scalars(k, seen)
            yield from _scalars(v, seen)
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            yield from _scalars(v, seen)


def _maps(text: str):
    docs, problems = yn.load_documents(text)
    assert not problems, problems
    for d in docs:
        for n in _scalars(d.root):
            yield n, d.src.scalar(n)


def _check_map(text: str, n, m: yn.Mapped) -> None:
    assert m.text == n.value
    assert not m.approx, (n.style, n.value, text)
    o = m.offsets
    assert len(o) == len(m.text) + 1
    assert all(a <= b for a, b in zip(o, o[1:]))
    assert 0 <= o[0] and o[-1] <= len(text)
    for i, ch in enumerate(m.text):
        written = text[o[i] : o[i + 1]]
        if text[o[i]] == ch:
            continue
        # Otherwise the character comes from an escape, a '' pair or folding.
        assert written[:1] in ("\\", "'") or written[:1].isspace(), (i, ch, written, text)


def test_styles_by_example():
    text = (
        'a: &x !!str foo\nb: *x\nc: !!int "3"\n'
        "d: >-\n  a\n  b\n\n  c\n   d\n  e\n"
        'e: "a\\\n   b  \\\n  c"\n'
        "f: 'it''s\n\n  multi  \n  line'\n"
        "g: plain\n  multi\n\n\n  line  \n"
        'h: "\\u00e9\\x41\\t\\"q\\" \\U0001F600"\n'
        "i: |+\n  a\n\n\n"
        "j: >\n  a\n    b\n  c\n\n  d\n"
        "k: |2\n    foo\n  bar\n"
    )
    got = {}
    for n, m in _maps(text):
        _check_map(text, n, m)
        got[n.value] = m
    # the escape \" maps to both of its characters
    h = got['éA\t"q" 😀']
    assert text[h.offsets[3] : h.offsets[4]] == '\\"'
    # a folded line break is the space, covering the break
    assert text[got["a b\nc\n d\ne"].offsets[1]] == "\n"
    # explicit indentation indicator: the two extra spaces are content
    assert text[got["  foo\nbar\n"].offsets[0] : got["  foo\nbar\n"].offsets[2]] == "  "


def test_crlf_and_bom():
    text = "\ufeffa: b\r\nc: \"d\r\n  e\"\r\nf: |\r\n  x\r\n  y\r\n"
    for n, m in _maps(text):
        _check_map(text, n, m)
    vals = {n.value: m for n, m in _maps(text)}
    assert text[vals["b"].offsets[0]] == "b"
    assert text[vals["x\ny\n"].offsets[0]] == "x"


def test_block_scalar_in_sequence_keeps_script_offsets():
    text = "args:\n- |\n  vllm serve m \\\n    --max-model-len 4096\n"
    m = [m for n, m in _maps(text) if n.style == "|"][0]
    i = m.text.index("--max-model-len")
    assert text[m.offsets[i] : m.offsets[i + len("--max-model-len")]] == "--max-model-len"


_STYLES = [None, "'", '"', "|", ">"]
_alphabet = st.characters(
    codec="utf-8",
    exclude_categories=("Cs", "Cc", "Co", "Cn"),
    include_characters=" \t\n\"'\\#:-{}[],&*!|>%@`",
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.text(_alphabet, max_size=60),
    style=st.sampled_from(_STYLES),
    width=st.integers(min_value=8, max_value=80),
    nested=st.booleans(),
)
def test_scalar_maps_round_trip(value, style, width, nested):
    data = {"key": [value]} if nested else value
    try:
        text = yaml.dump(data, default_style=style, width=width, allow_unicode=True)
    except yaml.YAMLError:
        return
    for n, m in _maps(text):
        _check_map(text, n, m)


def test_syntax_error_costs_only_its_document():
    text = "a: 1\n---\nb: [unclosed\n---\nc: 3\n"
    docs, problems = yn.load_documents(text)
    assert [yn.keys(d.root) for d in docs] == [["a"], ["c"]]
    assert len(problems) == 1 and problems[0].code == "parse-error"
    assert text.index("b: [") < problems[0].span.start <= len(text)


def test_merge_keys():
    text = "x: &base {image: a, command: [x]}\ns:\n  <<: *base\n  image: b\n"
    docs, _ = yn.load_documents(text)
    s = yn.get(docs[0].root, "s")
    assert [k.value for k, _ in yn.items(s)] == ["command", "image"]
    assert yn.get(s, "image").value == "b"


def test_alias_bomb_and_cycles_are_bounded():
    bomb = 'a: &a ["x","x"]\n' + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n"
        for i in range(20)
    )
    docs, _ = yn.load_documents(bomb)
    v = yn.to_value(docs[0].src, docs[0].root)
    assert not v.complete
    assert sum(1 for _ in yn.walk_maps(docs[0].root)) == 1
    docs, _ = yn.load_documents("&a [*a]\n")
    assert not yn.to_value(docs[0].src, docs[0].root).complete


def test_deep_nesting_is_a_problem_not_a_crash():
    docs, problems = yn.load_documents("[" * 5000 + "]" * 5000)
    assert problems and problems[0].code == "parse-error"
    text = "a: " + "[" * 900 + "]" * 900
    docs, problems = yn.load_documents(text)
    assert not problems
    v = yn.to_value(docs[0].src, docs[0].root)
    assert not v.complete


def test_nested_source_maps_through_outer_scalar():
    text = "data:\n  config.yaml: |\n    model: m\n    tensor-parallel-size: 2\n"
    docs, _ = yn.load_documents(text)
    inner_scalar = yn.get(yn.get(docs[0].root, "data"), "config.yaml")
    m = docs[0].src.scalar(inner_scalar)
    roots, problem = yn.compose_text(m.text)
    assert problem is None
    src = yn.Src(m.text, 0, m.offsets)
    for k, v in yn.items(roots[0]):
        assert text[src.span(k).start : src.span(k).end] == k.value
        sv = src.scalar(v)
        assert text[sv.span.start : sv.span.end] == v.value
