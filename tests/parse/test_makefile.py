"""Makefile recipes as launch files (issue 16, item 8): make's own variables
and escapes are applied before the shell reads each recipe line."""

from __future__ import annotations

import pytest

from servelint.model import Entry, Form
from servelint.parse import kind_of, parse_document


def launches(text: str, name: str = "Makefile"):
    return parse_document(name, text).launches


def texts(launch) -> list[str]:
    return [w.text for w in launch.args]


@pytest.mark.parametrize("name", ["Makefile", "makefile", "GNUmakefile", "serve.mk", "Makefile.gpu", "ops/Makefile"])
def test_makefile_names(name: str) -> None:
    assert kind_of(name, "") == "makefile"


def test_language_id() -> None:
    assert kind_of("build.txt", "", "makefile") == "makefile"


def test_make_variables_and_escapes() -> None:
    text = (
        "MODEL ?= Qwen/Qwen3-8B\n"
        "TP := 2\n"
        "serve:\n"
        "\t@vllm serve $(MODEL) -tp ${TP} --api-key $$API_KEY\n"
    )
    [l] = launches(text)
    assert l.form is Form.MAKEFILE and l.entry is Entry.SERVE
    assert texts(l) == ["Qwen/Qwen3-8B", "-tp", "2", "--api-key", "$API_KEY"]
    model = l.args[0]
    # A one-word value is shown where it is used (an edit of the launch stays in it).
    assert text[model.span.start : model.span.end] == "$(MODEL)"
    assert not l.args[4].exact  # the shell's $API_KEY, from the environment


def test_a_variable_the_makefile_never_sets_is_an_input() -> None:
    [l] = launches("serve:\n\tvllm serve $(MODEL) --port 8000\n")
    model = l.args[0]
    assert model.text == "$(MODEL)" and not model.exact
    assert model.note == "$(MODEL) is not set in this Makefile: an input, given on make's command line or in the environment"
    assert l.problems == []  # an input is not a mistake
    assert "MODEL" not in l.env  # a make variable, not the recipe's environment


def test_recursive_variables_take_their_last_value_simple_ones_their_first() -> None:
    text = (
        "BASE = 1\n"
        "LATE = $(BASE)\n"
        "EARLY := $(BASE)\n"
        "BASE = 2\n"
        "FLAGS = --seed 0\n"
        "FLAGS += --enforce-eager\n"
        "serve:\n"
        "\tvllm serve m --a $(LATE) --b $(EARLY) $(FLAGS)\n"
    )
    [l] = launches(text)
    assert texts(l) == ["m", "--a", "2", "--b", "1", "--seed", "0", "--enforce-eager"]


def test_continuations_prefixes_and_flag_positions() -> None:
    text = (
        "FLAGS = --max-model-len 8192 \\\n"
        "        --gpu-memory-utilization 0.9\n"
        "serve:\n"
        "\t-vllm serve m \\\n"
        "\t\t--port 8000 $(FLAGS)\n"
    )
    [l] = launches(text)
    assert texts(l) == ["m", "--port", "8000", "--max-model-len", "8192", "--gpu-memory-utilization", "0.9"]
    spans = {w.text: text[w.span.start : w.span.end] for w in l.args}
    assert spans["--gpu-memory-utilization"] == "--gpu-memory-utilization"
    assert l.args[5].span.start == text.index("--gpu-memory")
    assert l.layout == "multiline-backslash"


def test_each_recipe_line_is_its_own_shell_unless_oneshell() -> None:
    body = "serve:\n\tLEN=4096\n\tvllm serve m --max-model-len $$LEN\n"
    [l] = launches(body)
    assert not l.args[-1].exact  # LEN was set in another shell
    [l] = launches(".ONESHELL:\n" + body)
    assert l.args[-1].text == "4096" and l.args[-1].exact


def test_exported_variables_reach_the_environment() -> None:
    [l] = launches("export CUDA_VISIBLE_DEVICES = 0,1\nX = 1\nserve:\n\tvllm serve m\n")
    assert l.env["CUDA_VISIBLE_DEVICES"].value == "0,1"
    assert "X" not in l.env


def test_what_make_computes_is_unknown() -> None:
    text = (
        "-include .env\n"
        "V != git describe\n"
        "ifeq ($(GPU),a100)\nTP = 4\nelse\nTP = 1\nendif\n"
        "ifndef PORT\nPORT = 8000\nendif\n"
        "serve:\n"
        "\tvllm serve $(MODEL) --revision $(V) -tp $(TP) --port $(PORT) --name $@ --dir $(shell pwd)\n"
    )
    [l] = launches(text)
    notes = {w.text: w.note for w in l.args if not w.exact}
    assert notes == {
        "$(MODEL)": "$(MODEL) is not set in this Makefile (an included file may set it)",
        "$(V)": "$(V) is the output of a shell command",
        "$(TP)": "$(TP) is set inside a make conditional",
        "$@": "$@ is set by make for each target",
        "$(shell pwd)": "$(shell ...) is computed by make",
    }
    assert texts(l)[texts(l).index("--port") + 1] == "8000"  # ifndef X / X = d: a default


def test_program_in_a_make_variable() -> None:
    [l] = launches("PYTHON ?= python3\nserve:\n\t$(PYTHON) -m vllm.entrypoints.openai.api_server --model m\n")
    assert l.entry is Entry.API_SERVER
    [l] = launches("serve:\n\t$(PY) -m vllm.entrypoints.openai.api_server --model m\n")
    assert l.entry is Entry.API_SERVER


def test_target_specific_variables_and_inline_recipes() -> None:
    text = "bench: MODEL = small\nMODEL = big\nbench: ; vllm serve $(MODEL)\nserve:\n\tvllm serve $(MODEL)\n"
    got = sorted(texts(l)[0] for l in launches(text))
    assert got == ["big", "small"]


@pytest.mark.parametrize(
    "recipe",
    ["\techo vllm serve m\n", "\tvllm bench serve --model m\n", "\t# vllm serve m\n", "\tpytest -q\n"],
)
def test_not_launches(recipe: str) -> None:
    assert launches("t:\n" + recipe) == []


def test_lines_outside_recipes_are_not_run() -> None:
    # A variable's value is not a command, and neither is a rule line.
    assert launches("CMD = vllm serve m\nall: vllm\n") == []
