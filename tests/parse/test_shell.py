"""The shell parser: offsets, embedding, variable languages, robustness."""

from __future__ import annotations

import pytest

from servelint.model import Entry, EnvVar, Form
from servelint.parse import problems
from servelint.parse.shell import parse_shell, parse_shell_document
from servelint.text import SourceText, Span


def one(text: str, **kw):
    result = parse_shell(text, **kw)
    assert len(result.launches) == 1, result.launches
    return result.launches[0]


def written(text: str, launch) -> list[str]:
    return [text[w.span.start : w.span.end] for w in launch.args]


def test_non_ascii_before_the_launch_keeps_ranges_exact():
    text = "# 模型 🚀 café\necho '🚀🚀'\nvllm serve 通义/千问 --served-model-name '名 字' --port 8000\n"
    launch = one(text)
    assert [w.text for w in launch.args] == ["通义/千问", "--served-model-name", "名 字", "--port", "8000"]
    assert written(text, launch) == ["通义/千问", "--served-model-name", "'名 字'", "--port", "8000"]
    assert text[launch.entry_span.start : launch.entry_span.end] == "vllm serve"
    # And the LSP position of the port value, in UTF-16 columns on its line.
    src = SourceText(text)
    port = launch.args[-1]
    assert src.position(port.span.start) == (2, text.splitlines()[2].index("8000"))


def test_each_character_maps_back_through_quotes_and_escapes():
    text = 'vllm serve m --x "a\\"b" --y=\'c d\'e'
    launch = one(text)
    x, y = launch.args[2], launch.args[3]
    assert x.text == 'a"b'
    assert text[x.sub(1, 2).start : x.sub(1, 2).end] == '\\"'  # the escape covers both characters
    assert y.text == "--y=c de"
    # Quotes are not characters of the value: the value starts after the quote.
    value = y.sub(4, 8)
    assert text[value.start : value.end] == "c d'e"


def test_resolved_variable_maps_to_its_use_and_default_to_its_text():
    text = "M=org/model\nvllm serve $M --tp ${TP:-4}"
    launch = one(text)
    model, _, tp = launch.args
    assert model.text == "org/model" and text[model.span.start : model.span.end] == "$M"
    assert model.sub(0, len(model.text)) == model.span
    assert tp.text == "4" and text[tp.sub(0, 1).start : tp.sub(0, 1).end] == "4"


def test_embedded_script_with_an_offset_table():
    # The script sits inside a larger document, one character of the
    # document per two of the script (as if every character were escaped).
    script = "vllm serve m --port 1"
    offsets = [1000 + 2 * i for i in range(len(script) + 1)]
    launch = one(script, offsets=offsets, form=Form.KUBERNETES)
    assert launch.form == Form.KUBERNETES
    assert launch.entry_span == Span(1000, 1000 + 2 * 10)
    port = launch.args[-1]
    assert port.span == Span(1000 + 2 * 20, 1000 + 2 * 21)


def test_embedded_script_with_a_base():
    launch = one("vllm serve m", base=500)
    assert launch.span == Span(500, 512) and launch.args[0].span == Span(511, 512)


def test_k8s_dependent_variables_before_the_shell():
    env = {"MODEL_ID": EnvVar("MODEL_ID", "org/m", Span(0, 5))}
    text = "vllm serve $(MODEL_ID) --x $$(MODEL_ID) --y $(UNKNOWN)"
    launch = one(text, env=env, expand="k8s")
    model, _, x, _, y = launch.args
    assert model.text == "org/m" and text[model.span.start : model.span.end] == "$(MODEL_ID)"
    # $$(VAR) escapes k8s: bash then sees a command substitution.
    assert not x.exact
    # Unresolved references stay as written (and bash runs them as commands).
    assert not y.exact and y.text == "$(UNKNOWN)"
    assert launch.env["MODEL_ID"].value == "org/m"


def test_github_expressions_are_unknown():
    text = 'vllm serve "${{ inputs.model }}" --max-model-len ${{ matrix.len }} --port 8000'
    launch = one(text, expand="github")
    model, _, length, _, port = launch.args
    assert model.text == "${{ inputs.model }}" and not model.exact
    assert length.text == "${{ matrix.len }}" and not length.exact
    assert port.exact
    assert not any(p.code == problems.UNSET_VARIABLE for p in launch.problems)


def test_host_env_is_visible_and_exported():
    env = {"MODEL": EnvVar("MODEL", "org/m", Span(3, 8))}
    launch = one('vllm serve "$MODEL"', env=env)
    assert launch.args[0].text == "org/m"
    assert launch.env["MODEL"].value == "org/m"


def test_layout():
    assert one("vllm serve m --a 1 --b 2").layout == "single-line"
    assert one("vllm serve m \\\n  --a 1 \\\n  --b 2").layout == "multiline-backslash"
    assert one("X=1 \\\nvllm serve m --a 1").layout == "single-line"


def test_inputs_are_the_values_and_the_model_the_file_never_sets():
    launch = one("vllm serve $M --$NAME 1 --a=$A --b $B ${C:+--c $C} ${D:-d} --e=${E:?x}")
    # Given by whoever runs the script: no problem (issue 16, item 1).
    assert launch.problems == []
    assert [i.name for i in launch.inputs] == ["M", "A", "B", "E"]
    model = launch.args[0]
    assert not model.exact and model.note == "$M is not set in this file: an input, given by whoever runs it"
    [e] = [i for i in launch.inputs if i.name == "E"]
    assert e.guard_kind == "required"  # ${E:?x} stops the shell when E is unset


def test_unset_variable_defined_later_in_a_function_is_not_flagged():
    text = "start() { vllm serve $MODEL; }\nMODEL=m\nstart\n"
    launch = one(text)
    assert launch.args[0].text == "m" and launch.problems == []


def test_opaque_words_do_not_become_args():
    launch = one('vllm serve m "$@" --port 1 ${EXTRA_ARGS}')
    assert [w.text for w in launch.args] == ["m", "--port", "1"]
    assert [w.text for w in launch.opaque] == ['"$@"', "${EXTRA_ARGS}"]


def test_array_elements_point_at_their_definition():
    text = "A=(--a 1 'b c')\nvllm serve m \"${A[@]}\""
    launch = one(text)
    assert [w.text for w in launch.args] == ["m", "--a", "1", "b c"]
    assert written(text, launch)[1:] == ["--a", "1", "'b c'"]


def test_config_refs_in_the_document():
    doc = parse_shell_document("x.sh", "vllm serve --config a.yaml\nvllm serve m --config=b.yaml\n")
    assert [w.text for _, w in doc.config_refs] == ["a.yaml"]
    assert doc.form == Form.SHELL
    assert [p.code for p in doc.launches[1].problems] == [problems.CONFIG_EQUALS_IGNORED]


def test_parse_errors_point_at_the_culprit():
    text = 'vllm serve m --served-model-name "oops\n'
    launch = one(text)
    (p,) = launch.problems
    assert p.code == problems.PARSE_ERROR and p.message == "unterminated double quote"
    assert text[p.span.start : p.span.end] == '"'
    # An error on another line, after the launch, is not the launch's.
    assert one('vllm serve m\necho "oops\n').problems == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "vllm",
        "vllm serve",
        "vllm serve m --x",
        "vllm serve m --x \"",
        "vllm serve m --x '",
        "vllm serve $(",
        "vllm serve ${",
        "vllm serve ${X:-",
        "vllm serve \\",
        "f() { vllm serve m",
        "if true; then vllm serve m",
        "bash <<EOF\nvllm serve m",
        "bash -c 'vllm serve \"",
        "A=(",
        "vllm serve m $((1/0)) $((x))",
        "\x00vllm serve m",
        "vllm serve m\r\n--x 1",
    ],
)
def test_half_typed_input_never_raises(text, monkeypatch):
    monkeypatch.setenv("SERVELINT_STRICT", "1")
    doc = parse_shell_document("x.sh", text)
    for launch in doc.launches:
        assert launch.entry == Entry.SERVE
        for w in launch.args:
            assert 0 <= w.span.start <= w.span.end <= len(text)


def test_launches_inside_functions_loops_and_substitutions():
    text = (
        "run() { vllm serve a; }\n"
        "for i in 1 2; do vllm serve b --port $((8000+i)); done\n"
        "CID=$(docker run -d vllm/vllm-openai --model c)\n"
        "run\n"
    )
    found = parse_shell(text).launches
    assert [l.args[0].text for l in found if l.args] == ["a", "b", "--model"]
    assert found[1].args[-1].exact is False


def test_conditional_assignments():
    text = (
        "if x; then TP=2; else TP=4; fi\n"
        "[ -z \"$M\" ] && M=org/m\n"
        "vllm serve $M --tp $TP\n"
    )
    launch = one(text)
    assert launch.args[0].text == "org/m" and launch.args[0].exact
    assert not launch.args[2].exact


def test_heredoc_fed_to_a_shell_is_a_script_but_not_one_written_to_a_file():
    text = "M=m\nbash <<EOF\nvllm serve $M\nEOF\ncat > x.sh <<EOF\nvllm serve n\nEOF\n"
    launch = one(text)
    assert launch.args[0].text == "m"
    assert text[launch.entry_span.start : launch.entry_span.end] == "vllm serve"


def test_characters_that_crash_tree_sitter_bash_are_harmless():
    # tree-sitter-bash's scanner calls isalpha() on raw code points; some
    # (U+31860 after ``{``, tree-sitter-bash#337) crash the whole process.
    # Run in a child so a regression fails this test instead of the suite.
    import subprocess
    import sys

    code = (
        "from servelint.parse.shell import parse_shell_document\n"
        "for ch in ['\\U00031860', '\\U000edf83', '\\U000e0041', '\\U0010ffff', '\\U00020000']:\n"
        "    for t in ['{' + ch, 'x {' + ch + '}', '[[ -' + ch + ' ]]', 'cat <<E\\n$' + ch + '\\nE\\n']:\n"
        "        for _ in range(20):\n"
        "            parse_shell_document('x.sh', t + '\\nvllm serve ' + ch)\n"
    )
    import os

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]


def test_variables_from_a_file_silence_unset_warnings():
    for setup in ("source .env", ". ./.env", "export $(grep -v '^#' .env | xargs)"):
        launch = one(f"{setup}\nvllm serve $MODEL")
        assert launch.problems == [] and not launch.args[0].exact


def test_a_guard_protects_only_the_launches_after_it():
    text = 'vllm serve "$MODEL"\n: "${MODEL:?}"\nvllm serve "$MODEL" --port 1\n'
    first, second = parse_shell_document("x.sh", text).launches
    assert first.inputs[0].guard is None
    assert second.inputs[0].guard_kind == "required"
    assert text[second.inputs[0].guard.start : second.inputs[0].guard.end] == '${MODEL:?}'


def test_an_inner_script_input_the_outer_never_sets_is_no_problem():
    [launch] = parse_shell_document("x.sh", "bash -c 'vllm serve m --port $PORT'\n").launches
    assert launch.problems == [] and [i.name for i in launch.inputs] == ["PORT"]


def test_a_heredoc_written_config_is_the_launchs_config():
    text = (
        "TP=2\n"
        "cat > cfg.yaml <<EOF\n"
        "tensor-parallel-size: $TP\n"
        "enable-prefix-caching: false\n"
        "seed: $SEED\n"
        "EOF\n"
        "vllm serve m --config ./cfg.yaml\n"
    )
    [launch] = parse_shell_document("x.sh", text).launches
    cfg = launch.written_config
    assert [w.text for w in cfg.args] == ["--tensor-parallel-size", "2", "--seed", "$SEED"]
    # Positions are inside the heredoc: a finding lands on the key as written.
    assert text[cfg.args[0].span.start : cfg.args[0].span.end] == "tensor-parallel-size"
    assert text[cfg.args[1].span.start : cfg.args[1].span.end] == "$TP"
    assert not cfg.args[3].exact and "an input" in cfg.args[3].note
    # The file's dropped `false` is this launch's problem: vLLM reads it for it.
    assert [p.code for p in launch.problems] == [problems.CONFIG_FALSE_DROPPED]


def test_a_quoted_heredoc_delimiter_keeps_the_text():
    text = "cat <<'EOF' > cfg.yaml\nserved-model-name: $NAME\nEOF\nvllm serve m --config cfg.yaml\n"
    [launch] = parse_shell_document("x.sh", text).launches
    assert [(w.text, w.exact) for w in launch.written_config.args] == [("--served-model-name", True), ("$NAME", True)]
