"""The Dockerfile parser: ENTRYPOINT + CMD, exec and shell form, offsets."""

from __future__ import annotations

from servelint.model import Entry
from servelint.parse import problems
from servelint.parse.dockerfile import parse_dockerfile_document


def parse(text: str):
    return parse_dockerfile_document("Dockerfile", text)


def test_cmd_on_the_vllm_image_is_an_image_launch():
    text = 'FROM vllm/vllm-openai:v0.28.0\nCMD ["m", "--tp", "2"]\n'
    (launch,) = parse(text).launches
    assert launch.entry == Entry.IMAGE and launch.image == "vllm/vllm-openai:v0.28.0"
    assert text[launch.entry_span.start : launch.entry_span.end] == "vllm/vllm-openai:v0.28.0"
    assert [w.text for w in launch.args] == ["m", "--tp", "2"]
    assert [text[w.span.start : w.span.end] for w in launch.args] == ['"m"', '"--tp"', '"2"']
    assert launch.layout == "json-array"


def test_json_escapes_map_to_the_document():
    text = 'FROM vllm/vllm-openai\nCMD ["--x", "{\\"a\\":\\u00e9}"]\n'
    (launch,) = parse(text).launches
    value = launch.args[1]
    assert value.text == '{"a":é}'
    quote = value.sub(1, 2)
    assert text[quote.start : quote.end] == '\\"'
    e = value.sub(5, 6)
    assert text[e.start : e.end] == "\\u00e9"


def test_entrypoint_and_cmd_combine():
    text = 'FROM python:3.12\nENTRYPOINT ["vllm", "serve"]\nCMD ["m", "--port", "1"]\n'
    (launch,) = parse(text).launches
    assert launch.entry == Entry.SERVE
    assert [w.text for w in launch.args] == ["m", "--port", "1"]
    assert launch.span.start == text.index("ENTRYPOINT")


def test_entrypoint_resets_an_inherited_cmd():
    text = (
        "FROM python:3.12 AS base\nCMD [\"vllm\", \"serve\", \"old\"]\n"
        "FROM base\nENTRYPOINT [\"vllm\", \"serve\"]\n"
    )
    launches = parse(text).launches
    assert [w.text for w in launches[-1].args] == []
    assert [w.note is not None for w in launches[-1].opaque] == [True]


def test_serve_repeated_on_the_vllm_image():
    (launch,) = parse('FROM vllm/vllm-openai\nCMD ["serve", "m"]\n').launches
    assert [p.code for p in launch.problems] == [problems.SERVE_REPEATED]


def test_shell_form_sees_env_but_not_build_args():
    text = (
        "FROM python:3.12\nARG REV=main\nENV MODEL=org/m\n"
        'CMD vllm serve $MODEL --revision "$REV"\n'
    )
    (launch,) = parse(text).launches
    assert [w.text for w in launch.args][:2] == ["org/m", "--revision"]
    assert not launch.args[2].exact
    (p,) = launch.problems
    assert p.code == problems.UNSET_VARIABLE and "build ARG" in p.message
    assert launch.env["MODEL"].value == "org/m"


def test_exec_form_does_not_expand_variables():
    (launch,) = parse('FROM vllm/vllm-openai\nENV M=x\nCMD ["$M"]\n').launches
    assert launch.args[0].text == "$M" and launch.args[0].exact
    assert [p.code for p in launch.problems] == [problems.FORM_VALUE]


def test_continuations_and_comments_inside_an_instruction():
    text = 'FROM vllm/vllm-openai\nCMD ["a", \\\n# note\n     "b"]\n'
    (launch,) = parse(text).launches
    assert [(w.text, text[w.span.start : w.span.end]) for w in launch.args] == [("a", '"a"'), ("b", '"b"')]


def test_escape_directive_and_arg_in_from():
    text = '# escape=`\nARG IMG=vllm/vllm-openai:v0.28.0\nFROM ${IMG}\nCMD ["m", `\n "--x"]\n'
    (launch,) = parse(text).launches
    assert launch.image == "vllm/vllm-openai:v0.28.0"
    assert [w.text for w in launch.args] == ["m", "--x"]


def test_not_a_launch():
    assert parse("FROM python:3.12\nCMD [\"python\", \"app.py\"]\n").launches == []
    assert parse("FROM vllm/vllm-openai\nRUN vllm serve m\n").launches == []
    assert parse("").launches == []
    assert parse("CMD [\n").launches == []
