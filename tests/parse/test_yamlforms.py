"""YAML forms: recognition, the --config API, expansion rules, robustness."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from servelint.model import Entry, Form
from servelint.parse import yamlnodes as yn
from servelint.parse.compose import interpolate, split_command
from servelint.parse.k8s import expand
from servelint.parse.vllm_config import parse_vllm_config
from servelint.parse.words import MStr
from servelint.parse.yamlforms import parse_yaml_document
from servelint.model import EnvVar

FORMS = Path(__file__).parent.parent / "forms"
YAML_FORMS = ("vllm-config", "kubernetes", "compose", "helm", "skypilot", "github-actions")


def _texts(doc, text):
    """(word text, written text) of every launch word."""
    return [[(w.text, text[w.span.start : w.span.end]) for w in l.args] for l in doc.launches]


# -- recognition ------------------------------------------------------------------


def test_unrelated_yaml_yields_nothing():
    samples = [
        "key: value\nlist: [1, 2]\n",
        "model: gpt-4o\ntemperature: 0.2\nmax_tokens: 100\n",  # an LLM client config
        "host: 0.0.0.0\nport: 8080\nmodel: x\n",  # generic names only
        "openapi: 3.0.0\npaths: {}\n",
        "- vllm serve x --tp 2\n",  # a list, not a launch form
        "applications:\n- args:\n    engine_kwargs: {tensor_parallel_size: 2, max_model_len: 4096}\n",
        "name: docs\nrun: mkdocs build\n",  # run: without SkyPilot keys
    ]
    for text in samples:
        doc = parse_yaml_document("x.yaml", text)
        assert doc.launches == [] and doc.form is None, text


def test_config_recognised_by_content_not_name():
    text = "max-num-seqs: 8\ngpu-memory-utilization: 0.5\n"
    doc = parse_yaml_document("whatever.yml", text)
    assert doc.form is Form.VLLM_CONFIG
    (launch,) = doc.launches
    assert launch.entry is Entry.CONFIG_FILE
    assert [w.text for w in launch.args] == ["--max-num-seqs", "8", "--gpu-memory-utilization", "0.5"]


# -- parse_vllm_config: the file a launch names ----------------------------------


def test_config_key_word_maps_name_onto_key():
    text = "'tensor_parallel_size': 2\n"
    (launch,) = parse_vllm_config("c.yaml", text).launches
    key = launch.args[0]
    assert key.text == "--tensor_parallel_size" and key.role == "config-key"
    # the name (without --) covers the key as written, inside the quotes
    assert text[key.sub(2, len(key.text)).start : key.sub(2, len(key.text)).end] == "tensor_parallel_size"
    assert key.sub(0, 2).start == key.sub(0, 2).end == 1


def test_config_nested_value_tree():
    text = "speculative-config:\n  method: ngram\n  num_speculative_tokens: 3\n"
    (launch,) = parse_vllm_config("c.yaml", text).launches
    value = launch.args[1]
    assert value.text == '{"method": "ngram", "num_speculative_tokens": 3}'
    n = value.node.get("num_speculative_tokens")
    assert n.value == 3
    assert text[n.key_span.start : n.key_span.end] == "num_speculative_tokens"
    assert text[n.span.start : n.span.end] == "3"


def test_config_file_problems():
    assert parse_vllm_config("c.yaml", "- a\n- b\n").problems[0].code == "parse-error"
    assert parse_vllm_config("c.yaml", "").problems[0].code == "parse-error"
    two = parse_vllm_config("c.yaml", "model: a\n---\nmodel: b\n")
    assert not two.launches and two.problems[0].code == "parse-error"
    bad = parse_vllm_config("c.yaml", "model: [a\n")
    assert not bad.launches and bad.problems[0].code == "parse-error"


def test_config_false_problem_offers_replacements():
    (launch,) = parse_vllm_config("c.yaml", "enable-prefix-caching: off\n").launches
    (p,) = launch.problems
    assert p.code == "config-false-dropped" and p.data["replacement"] == "no-enable-prefix-caching"
    # Which spellings to offer depends on the release: the rule (SL003) says it.
    assert p.data["key"] == "enable-prefix-caching" and p.data["written"] == "off"
    assert "`enable-prefix-caching: off`" in p.message
    assert launch.args == []


def test_configmap_config_maps_into_block_scalar():
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n"
        "  vllm.yaml: |\n    model: m\n    max-model-len: 4096\n"
    )
    doc = parse_yaml_document("cm.yaml", text)
    (launch,) = doc.launches
    assert launch.form is Form.VLLM_CONFIG
    assert _texts(doc, text)[0] == [
        ("--model", "model"), ("m", "m"), ("--max-model-len", "max-model-len"), ("4096", "4096")
    ]


# -- Kubernetes $(VAR) -------------------------------------------------------------


def _m(text: str) -> MStr:
    return MStr.verbatim(text, 100)


def test_k8s_expand_rules():
    env = {"A": EnvVar("A", "x", None), "R": EnvVar("R", None, None, False)}
    out, exact, _, unset = expand(_m("$(A)-$$(A)-$(B)-$(R)-$x-$("), env, env_from=False)
    assert out.text == "x-$(A)-$(B)-$(R)-$x-$("
    assert not exact and [name for name, _ in unset] == ["B"]
    assert out.starts[0] == 100 and out.ends[0] == 104  # "x" stands for "$(A)"
    _, exact, note, unset = expand(_m("$(B)"), {}, env_from=True)
    assert not exact and not unset and "envFrom" in note


def test_k8s_script_keeps_command_substitution_quiet():
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: v\n"
        "    image: vllm/vllm-openai:v0.28.0\n    command: [sh, -c]\n"
        "    args: ['vllm serve m --host $(hostname -i)']\n"
    )
    (launch,) = parse_yaml_document("p.yaml", text).launches
    assert not [p for p in launch.problems if p.code == "unset-variable"]


# -- compose ----------------------------------------------------------------------------


def test_compose_interpolation():
    out, inexact = interpolate(_m("a$$b ${X:-d} ${Y} $Z ${A:-${B:-n}}"))
    assert out.text == "a$b d ${Y} $Z n"
    assert inexact[out.text.index("d")] and not inexact[0]


def test_compose_split_like_go_shellwords():
    found = []
    m = _m("""vllm serve "a b" 'c d' e\\ f g\\th x|y""")
    words = split_command(m, [False] * len(m), found)
    assert [w.text for w in words] == ["vllm", "serve", "a b", "c d", "e f", "g\th", "x"]
    assert words[2].span == __import__("servelint.text", fromlist=["Span"]).Span(111, 116)
    assert found and found[0].code == "form-value"


# -- robustness -------------------------------------------------------------------------


def _check_doc(text: str) -> None:
    doc = parse_yaml_document("t.yaml", text)
    n = len(text)
    for p in doc.problems:
        assert 0 <= p.span.start <= p.span.end <= n
        assert not p.message.startswith("servelint could not read"), p.message
    for launch in doc.launches:
        spans = [launch.span, launch.entry_span] + [p.span for p in launch.problems]
        for w in launch.args + launch.opaque:
            spans.append(w.span)
            if w.offsets is not None:
                assert len(w.offsets) >= len(w.text) + 1 or not w.text
                assert all(a <= b for a, b in zip(w.offsets, w.offsets[1:]))
                assert all(0 <= o <= n for o in w.offsets)
            spans.append(w.sub(0, len(w.text)))
        for s in spans:
            assert 0 <= s.start <= s.end <= n, (s, n)


_SEEDS = sorted(p for f in YAML_FORMS for p in (FORMS / f).glob("*.y*ml"))
_FRAGMENTS = [
    "apiVersion: v1\n", "kind: Pod\n", "containers:\n", "- name: v\n", "  image: vllm/vllm-openai:v0.28.0\n",
    "  command: [vllm, serve]\n", "  args: [\"--x\", 2]\n", "services:\n", "  s:\n", "    command: >\n",
    "      --model $${A:-b}\n", "run: |\n", "  vllm serve m\n", "envs: {A: 1}\n", "model: m\n",
    "tensor-parallel-size: 2\n", "enforce-eager: false\n", "---\n", "&a [*a]\n", "<<: *a\n", '"\\"', "'",
    "{", "[", "\t", "é", "\r\n", ": ", "- ", "#", "|2-\n", "x: !!int 0x10\n", "\ufeff",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=25).map("".join))
def test_any_fragments_parse_without_raising(text):
    _check_doc(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from(_SEEDS) if _SEEDS else st.just(None),
    cuts=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 40), st.text(max_size=3)), max_size=4),
)
def test_mutated_real_files_parse_without_raising(seed, cuts):
    if seed is None:
        return
    text = seed.read_text(encoding="utf-8")
    for at, length, insert in cuts:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + length :]
    _check_doc(text)


def test_big_multi_document_file_reads_only_the_edited_document(monkeypatch):
    # Counted, not timed: bench/ measures the speed (guide: no timed asserts).
    from servelint.parse import yamlforms

    names = ("bash-c-literal-block.yaml", "args-pairs.yaml", "not-vllm.yaml", "env-expansion.yaml")
    templates = [(FORMS / "kubernetes" / n).read_text() for n in names]
    docs = [
        templates[i % len(templates)].replace("name: vllm", f"name: vllm-{i}").replace("32768", str(1000 + i))
        for i in range(200)
    ]  # ~5,000 lines; the 50 not-vllm documents are the same text
    text = "\n---\n".join(docs)
    yn._COMPOSED.clear()
    yamlforms._READ.clear()
    read = []
    real = yamlforms._read_uncached
    monkeypatch.setattr(yamlforms, "_read_uncached",
                        lambda text, chunk, *a, **k: read.append(chunk) or real(text, chunk, *a, **k))
    doc = parse_yaml_document("big.yaml", text)
    assert len(doc.launches) == 150
    assert len(read) >= 150 and len(set(read)) == len(read)  # a repeated document is read once
    # A keystroke in one document that shifts all the later ones: only that
    # document is read again, the others are reused and moved.
    at = text.index("--max-model-len", len(text) // 2)
    edited = text[:at] + "--max-model-lenn" + text[at + len("--max-model-len") :]
    read.clear()
    again = parse_yaml_document("big.yaml", edited)
    assert len(read) == 1 and "--max-model-lenn" in read[0]
    assert len(again.launches) == 150
    last = again.launches[-1].args[-1]
    assert edited[last.span.start : last.span.end] == text[doc.launches[-1].args[-1].span.start
                                                            : doc.launches[-1].args[-1].span.end]
    assert last.span.start == doc.launches[-1].args[-1].span.start + 1


def test_deep_manifest_is_reported_not_crashed():
    body = "x:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(80)) + "  " * 81 + "v: 1\n"
    text = "apiVersion: v1\nkind: Pod\n" + body
    doc = parse_yaml_document("deep.yaml", text)
    assert [p.code for p in doc.problems] == ["parse-error"]
    assert "deeper than" in doc.problems[0].message


def test_container_layout_for_fixes():
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: v\n"
        "    image: vllm/vllm-openai:v0.28.0\n    args:\n      - m\n      - --max-model-len\n      - \"4096\"\n"
    )
    (launch,) = parse_yaml_document("p.yaml", text).launches
    c = launch.container
    assert launch.layout == "yaml-list-pairs" and c.kind == "seq" and not c.flow
    assert [text[d] for d in c.dashes] == ["-", "-", "-"] and c.column == 6
    assert [text[i.start : i.end] for i in c.items] == ["m", "--max-model-len", '"4096"']
