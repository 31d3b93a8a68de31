"""YAML streams re-read document by document: an edit's parse equals a fresh
parse (every launch, word offset, problem, release hint, directive and
--config reference), and reads only the documents the edit touched."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from servelint.model import MovedLaunch
from servelint.parse import hints, parse_document
from servelint.parse import yamlforms
from servelint.parse import yamlnodes as yn

FORMS = Path(__file__).parent.parent / "forms"


def _sp(s):
    return None if s is None else (s.start, s.end)


def _value(v):
    if not isinstance(v, yn.YamlValue):
        return repr(v)
    kids = None if v.children is None else [_value(c) for c in v.children]
    return (repr(v.value), _sp(v.span), repr(v.key), _sp(v.key_span), kids, v.complete)


def _word(w):
    return (w.text, _sp(w.span), [w.at(i) for i in range(len(w.text) + 1)], w.exact, w.note, w.role,
            _value(w.node), w.path)


def _problem(p):
    return (p.code, p.message, _sp(p.span), p.severity, repr(p.data))


def _launch(l):
    c = l.container
    if isinstance(c, yn.Container):
        c = (c.kind, _sp(c.span), c.flow, [_sp(i) for i in c.items], c.dashes, c.column)
    return (l.form, l.entry, _sp(l.entry_span), [_word(w) for w in l.args], _sp(l.span),
            sorted((k, v.value, _sp(v.span), v.exact) for k, v in l.env.items()),
            [(h.version, _sp(h.span), h.kind, h.text) for h in l.release_hints], l.image,
            [_problem(p) for p in l.problems], [_word(w) for w in l.opaque], l.layout, repr(c))


def _everything(doc):
    index = {id(l): i for i, l in enumerate(doc.launches)}
    return {
        "form": doc.form,
        "launches": [_launch(l) for l in doc.launches],
        "problems": [_problem(p) for p in doc.problems],
        "hints": [(h.version, _sp(h.span), h.kind, h.text) for h in doc.release_hints],
        "refs": [(index[id(l)], _word(w)) for l, w in doc.config_refs],
        "directives": [(line, body, _sp(span)) for line, body, span in doc.directives],
    }


def _fresh(path, text):
    # Nothing remembered: what a first parse of this text gives.
    yn._COMPOSED.clear()
    yamlforms._READ.clear()
    return parse_document(path, text)


_DOC = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-{i}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.3{v}.0
          args:
            - meta-llama/Llama-3.1-8B-Instruct
            - --max-model-len
            - "{n}"
            - --config
            - cfg-{i}.yaml
          env:
            - name: HF_HOME
              value: /models
"""
_CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg-{i}  # servelint: vllm=0.29.0
data:
  vllm.yaml: |
    max-model-len: {n}
    tensor-parallel-size: 2
"""
_SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: vllm-{i}\nspec:\n  ports:\n    - port: 80\n"


def _stream(n_docs: int, seed: int) -> str:
    rng = random.Random(seed)
    docs = []
    for i in range(n_docs):
        template = rng.choice((_DOC, _DOC, _CONFIGMAP, _SERVICE))
        docs.append(template.format(i=i, v=rng.randrange(10), n=1024 * (i + 1)))
    return "---\n".join(docs)


# Edits that make and break document starts, directives, hints and syntax.
_TOKENS = ["---\n", "---", "\n", "-", " ", "%YAML 1.2\n", "%", "#", "# servelint: vllm=0.28.0\n",
           "# servelint: ignore[unknown-flag]\n", "vllm/vllm-openai:v0.30.0", "pip install vllm==0.29.1",
           "\ufeff", '"', "'", "|\n", "  ", ": ", "- --config\n", "{{ x }}", "\r\n", "\r", "a",
           "--max-model-len", "\n---\n", "...\n", "&a ", "*a", "\t"]


def _edit(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    r = rng.random()
    if r < 0.35:
        return text[:at] + rng.choice(_TOKENS) + text[at:]
    if r < 0.6:
        return text[:at] + text[at + rng.randrange(1, 12):]
    if r < 0.7 and "\n" in text:
        # Same length, other line breaks: later documents keep their
        # offsets but not their line numbers.
        nl = text.index("\n", at) if "\n" in text[at:] else text.index("\n")
        return text[:nl] + " " + text[nl + 1:] if rng.random() < 0.5 else text[:at] + "\n" + text[at + 1:]
    if r < 0.8:
        # A whole document moved elsewhere.
        b = text.find("---", at)
        return text[:at] + text[b:] + text[at:b] if b > 0 else text
    return text[:at] + rng.choice(_TOKENS) + text[at + rng.randrange(0, 4):]


@pytest.mark.parametrize("seed", range(6))
def test_edit_chain_equals_fresh_parse(seed):
    rng = random.Random(seed)
    text = _stream(12, seed)
    path = "deploy/manifests.yaml"
    previous = parse_document(path, text)
    for _ in range(60):
        text = _edit(rng, text)
        got = parse_document(path, text, previous=previous)
        assert _everything(got) == _everything(_fresh(path, text)), repr(text)
        previous = got


def test_edit_chains_over_the_form_samples():
    rng = random.Random(7)
    samples = sorted(p for p in FORMS.rglob("*.y*ml"))
    assert samples
    for sample in samples:
        text = sample.read_text(encoding="utf-8")
        text = "---\n".join([text, _SERVICE.format(i=1), text])
        previous = parse_document(sample.name, text)
        for _ in range(8):
            text = _edit(rng, text)
            got = parse_document(sample.name, text, previous=previous)
            assert _everything(got) == _everything(_fresh(sample.name, text)), (sample, text)
            previous = got


def _edit_max_model_len(monkeypatch, path: str, text: str):
    """Parse ``text``, then again with one ``--max-model-len`` past its middle
    misspelled, from the first parse; return the first parse, the second,
    the chunks the second read, and the offset of the edit."""
    first = parse_document(path, text)
    read = []
    real = yamlforms._read_uncached
    monkeypatch.setattr(yamlforms, "_read_uncached",
                        lambda text, chunk, *a: read.append(chunk) or real(text, chunk, *a))
    at = text.index("--max-model-len", len(text) // 2)
    edited = text[:at] + "--max-model-lenx" + text[at + len("--max-model-len"):]
    again = parse_document(path, edited, previous=first)
    read_by_edit = list(read)
    assert _everything(again) == _everything(_fresh(path, edited))
    return first, again, read_by_edit, at


def test_an_edit_reads_only_its_document(monkeypatch):
    first, again, read, at = _edit_max_model_len(monkeypatch, "m.yaml", _stream(30, 1))
    assert len(read) == 1 and "--max-model-lenx" in read[0]
    above = [l for l in first.launches if l.span.end <= at]
    below = [l for l in first.launches if l.span.start > at]
    assert above and below
    # Above the edit: the very same objects; below: moved, saying from where.
    assert all(a is b for a, b in zip(above, again.launches))
    moved = again.launches[-len(below):]
    assert all(isinstance(m, MovedLaunch) and m.moved_from is b for m, b in zip(moved, below))


def test_directive_lines_follow_line_breaks_above():
    text = "a: 1\n---\nb: 2\n---\n# servelint: vllm=0.28.0\nmax-model-len: 8\ntensor-parallel-size: 2\n"
    first = parse_document("c.yaml", text)
    assert [line for line, _, _ in first.directives] == [4]
    # Same length, one more line break above the directive's document.
    edited = text.replace("a: 1", "a:\n1", 1)
    again = parse_document("c.yaml", edited, previous=first)
    assert [line for line, _, _ in again.directives] == [5]
    assert _everything(again) == _everything(_fresh("c.yaml", edited))


def test_scanning_by_document_finds_what_the_whole_scan_finds():
    text = "\n---\n".join([
        "# servelint: vllm=0.28.0\nimage: vllm/vllm-openai:v0.30.0",
        "x: 1  # tested with vllm==0.27.1\nrun: pip install vllm==0.29.0",
        "image: docker.io/vllm/vllm-openai:0.31.0-cu128 # servelint: ignore[x]",
    ]) + "\n"
    whole = hints.scan(text)
    found, directives, line = [], [], 0
    cuts = [0] + yn.cuts(text, 1) + [len(text)]
    for a, b in zip(cuts, cuts[1:]):
        got, dirs = hints.scan(text, a, b, line)
        found += got
        directives += dirs
        line += text.count("\n", a, b)
    assert len(whole[0]) == 5 and len(whole[1]) == 2
    assert (found, directives) == whole


def test_directive_stream_is_a_percent_at_a_line_start():
    rng = random.Random(3)
    for _ in range(2000):
        text = "".join(rng.choice("%\n a-") for _ in range(rng.randrange(12)))
        assert yn.directive_stream(text) == (text.startswith("%") or "\n%" in text), repr(text)


def test_plain_scalars_from_libyaml_take_the_verbatim_path():
    # libyaml gives plain scalars the style "" (PyYAML's own composer: None).
    (root,), problem = yn.compose_text("args: [--port, 8000]\n")
    assert problem is None
    src = yn.Src("args: [--port, 8000]\n")
    port = yn.get(root, "args").value[0]
    assert port.style == "" or port.style is None
    m = src.scalar(port)
    assert m.verbatim and m.text == "--port" and m.offsets == list(range(7, 14))


def test_syntax_errors_reported_as_a_whole_file_scan_would_decide():
    # The old rule, on the whole text: never in a Helm template; else only
    # with a launch form found or "vllm" anywhere in the path or text.
    def old_rule(path, text, doc):
        return "{{" not in text and (doc.form is not None or "vllm" in (path + text).lower())

    bad = "a: [1\n"
    cases = [
        ("x.yaml", "---\n".join(["k: v\n", bad])),
        ("x.yaml", "---\n".join(["image: VLLM/x\n", bad])),
        ("x.yaml", "---\n".join(["t: '{{ .Values }}'\n", bad, "image: vllm\n"])),
        ("deploy-v", "llm: 1\n" + bad),  # "vllm" across the path and the text
        ("x.yaml", "---\n".join([bad, "max-model-len: 8\ntensor-parallel-size: 2\n"])),
    ]
    for path, text in cases:
        # The YAML parser itself: an editor may call any file YAML.
        doc = yamlforms.parse_yaml_document(path, text)
        reported = any(p.message.startswith("YAML syntax error") for p in doc.problems)
        assert reported == old_rule(path, text, doc), (path, text)
        # And again after an edit elsewhere, from the documents remembered.
        edited = "z: 0\n" + text
        again = yamlforms.parse_yaml_document(path, edited, previous=doc)
        assert _everything(again) == _everything(yamlforms.parse_yaml_document(path, edited))
    assert [old_rule(p, t, yamlforms.parse_yaml_document(p, t)) for p, t in cases] == [
        False, True, False, True, True]


# -- a Kubernetes List: each item a document of its own ----------------------------

_POD = """  - apiVersion: v1
    kind: Pod
    metadata:
      name: vllm-{i}
      namespace: ns-{ns}
      labels: {{app: vllm-{i}}}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.3{v}.0
          args:
            - Qwen/Qwen3-8B
            - --max-model-len
            - "{n}"
          resources:
            limits:
              nvidia.com/gpu: {g}
"""
_LIST_SERVICE = """  - apiVersion: v1
    kind: Service
    metadata: {{name: vllm-{i}, namespace: ns-{ns}}}
    spec:
      selector: {{app: vllm-{i}}}
      ports:
        - port: 80
          targetPort: 8000
"""


def _list(n_items: int, seed: int) -> str:
    rng = random.Random(seed)
    items = []
    for i in range(n_items):
        template = _LIST_SERVICE if i % 4 == 3 else _POD
        items.append(template.format(i=i // 4 * 4, ns=rng.randrange(2), v=rng.randrange(10),
                                     n=1024 * (i + 1), g=rng.randrange(1, 3)))
    return "apiVersion: v1\nkind: List\nmetadata: {}\nitems:\n" + "".join(items)


def _with_deployment(doc):
    got = _everything(doc)
    got["pods"] = [(l.pod, l.deployment, l.linked) for l in doc.launches]
    return got


def _list_edit(rng: random.Random, text: str) -> str:
    """An edit inside a List: mostly within a line (the items stay plain,
    cut as items), sometimes a whole item added or removed at an item's
    start, now and then one of ``_edit``'s (often leaving them not plain:
    read whole)."""
    lo, hi = text.find("kind: List"), text.rfind("---")
    lo, hi = (lo, hi) if 0 <= lo < hi else (0, len(text))
    r = rng.random()
    if r < 0.8:
        words = [m.start() for m in re.finditer(r"(?<=\S)\S", text[lo:hi])]
        if words:
            at = lo + rng.choice(words)
            eol = text.find("\n", at)
            cut = min(rng.randrange(0, 3), max(0, eol - at))
            return text[:at] + rng.choice(["x", "9", "-", "x", "9", " #", " ", "", "'", "]"]) + text[at + cut:]
    if r < 0.95:
        starts = [m.start() for m in re.finditer(r"(?m)^  - ", text[lo:hi])]
        if starts:
            at = lo + rng.choice(starts)
            if rng.random() < 0.5:
                return text[:at] + "  - apiVersion: v1\n    kind: Pod\n    spec: {containers: [{name: vllm, image: vllm/vllm-openai, args: [m, --port, '1']}]}\n" + text[at:]
            nxt = text.find("\n  - ", at + 1)
            return text[:at] + text[nxt + 1:] if nxt > 0 else text
    return _edit(rng, text)


@pytest.mark.parametrize("seed", range(8))
def test_edit_chain_in_a_list_equals_fresh_parse(seed):
    rng = random.Random(seed)
    path = "deploy/list.yaml"
    text = previous = None
    split = 0
    for k in range(160):
        if k % 40 == 0:  # a new plain List now and then
            text = "---\n".join([_DOC.format(i=0, v=1, n=8), _list(12, seed + k), _SERVICE.format(i=0)])
            previous = parse_document(path, text)
        text = _list_edit(rng, text)
        got = parse_document(path, text, previous=previous)
        assert _with_deployment(got) == _with_deployment(_fresh(path, text)), repr(text)
        split += got.cache is not None and any(d.part is not None for d in got.cache.docs)
        previous = got
    assert split >= 5  # the chain went through Lists read by items (about 20 per seed)


def test_a_list_read_by_items_finds_what_the_whole_list_gives(monkeypatch):
    text = _list(10, 3)
    by_items = _with_deployment(_fresh("l.yaml", text))
    monkeypatch.setattr(yn, "list_items", lambda chunk: None)
    assert _with_deployment(_fresh("l.yaml", text)) == by_items
    assert len(by_items["launches"]) == 8  # the Pods; every fourth item is a Service
    # Each item is an object of its own: its namespace decides its pod key.
    assert {pod[0][0] for pod in by_items["pods"]} == {"ns-0", "ns-1"}


def test_an_edit_in_a_list_reads_only_its_item(monkeypatch):
    first, again, read, at = _edit_max_model_len(monkeypatch, "l.yaml", _list(40, 1))
    assert len(read) == 1 and "--max-model-lenx" in read[0] and read[0].lstrip().startswith("- apiVersion")
    below = [l for l in first.launches if l.span.start > at]
    moved = again.launches[-len(below):]
    assert below and all(isinstance(m, MovedLaunch) and m.moved_from is b for m, b in zip(moved, below))
    assert _with_deployment(again)["pods"] == _with_deployment(_fresh("l.yaml", again.cache.text))["pods"]


def test_a_pods_image_hint_moves_once_with_its_item(monkeypatch):
    """A pod's image tag is both its own release hint and one of the
    document's: the two are one object, moved once per edit above it, and
    where they are after the edit is where a fresh parse finds them."""
    first, again, _, at = _edit_max_model_len(monkeypatch, "l.yaml", _list(40, 1))
    doc_hints = {id(h) for h in again.release_hints}
    below = [l for l in again.launches if l.span.start > at]
    assert below and all(l.release_hints for l in below)
    assert all(id(h) in doc_hints for l in below for h in l.release_hints)
    fresh = _fresh("l.yaml", again.cache.text)
    assert [[(h.version, _sp(h.span), h.kind, h.text) for h in l.release_hints] for l in again.launches] == [
        [(h.version, _sp(h.span), h.kind, h.text) for h in l.release_hints] for l in fresh.launches]
