"""Parsers on hostile and half-typed text: never an exception, every span in
the document, and the incremental shell parse equal to a full one."""

from __future__ import annotations

from fuzz_support import (
    JUNK,
    assert_no_internal_problem,
    check_spans,
    dockerfile_document,
    document,
    fuzz_settings,
    half_typed,
    mutated,
    seed_files,
    shell_document,
    strict_parsers,
    yaml_document,
)
from hypothesis import given
from hypothesis import strategies as st

from servelint.parse import parse_document
from servelint.parse.dockerfile import parse_dockerfile_document
from servelint.parse.dump import dump_document
from servelint.parse.shell import parse_shell_document
from servelint.parse.vllm_config import parse_vllm_config
from servelint.parse.yamlforms import parse_yaml_document

_BYTES_AS_TEXT = st.binary(max_size=200).map(lambda b: b.decode("utf-8", "replace"))
_SHELL_SEEDS = seed_files("shell")
_YAML_SEEDS = seed_files("kubernetes", "compose", "github-actions", "skypilot", "helm", "vllm-config")
_DOCKER_SEEDS = seed_files("dockerfile")


@st.composite
def _seed_mutation(draw, seeds):
    text = draw(st.sampled_from(seeds)).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 30))
        text = text[:at] + draw(st.sampled_from(JUNK) | st.text(max_size=3)) + text[at + cut:]
    return text


@fuzz_settings(ci=60)
@given(mutated(shell_document()) | _seed_mutation(_SHELL_SEEDS) | _BYTES_AS_TEXT, st.randoms(use_true_random=False))
def test_shell_parser(text, rnd):
    for text in half_typed(text, rnd):
        with document("shell"), strict_parsers():
            check_spans(parse_shell_document("x.sh", text), text)


@fuzz_settings(ci=25)
@given(mutated(shell_document()) | _seed_mutation(_SHELL_SEEDS), st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 6), st.sampled_from(JUNK) | st.text(max_size=3)),
    min_size=1, max_size=6))
def test_shell_incremental_parse_equals_a_full_parse(text, edits):
    with strict_parsers():
        doc = parse_document("run.sh", text)
        for at, cut, insert in edits:
            with document("shell-incremental"):
                at %= len(text) + 1
                text = text[:at] + insert + text[at + cut:]
                doc = parse_document("run.sh", text, previous=doc)
                assert dump_document(doc, text) == dump_document(parse_document("run.sh", text), text)


@fuzz_settings(ci=60)
@given(mutated(yaml_document()) | _seed_mutation(_YAML_SEEDS) | _BYTES_AS_TEXT, st.randoms(use_true_random=False))
def test_yaml_parser(text, rnd):
    for text in half_typed(text, rnd):
        with document("yaml"), strict_parsers():
            doc = parse_yaml_document("deploy.yaml", text)
            check_spans(doc, text)
            assert_no_internal_problem(doc)


@fuzz_settings(ci=40)
@given(mutated(yaml_document()) | _seed_mutation(_YAML_SEEDS), st.randoms(use_true_random=False))
def test_config_file_reader(text, rnd):
    for text in half_typed(text, rnd):
        with document("config-yaml"), strict_parsers():
            doc = parse_vllm_config("cfg.yaml", text)
            check_spans(doc, text)
            assert_no_internal_problem(doc)


@fuzz_settings(ci=40)
@given(mutated(dockerfile_document()) | _seed_mutation(_DOCKER_SEEDS) | _BYTES_AS_TEXT, st.randoms(use_true_random=False))
def test_dockerfile_parser(text, rnd):
    for text in half_typed(text, rnd):
        with document("dockerfile"), strict_parsers():
            check_spans(parse_dockerfile_document("Dockerfile", text), text)
