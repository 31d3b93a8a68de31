"""Helm values files: best effort, for the charts people use to serve vLLM.

A values file is not a launch; a chart's templates turn it into one.  Without
rendering the chart, three shapes are read:

1. **vllm-project/production-stack** (``servingEngineSpec.modelSpec[]``).
   Its ``deployment-vllm-multi.yaml`` template runs ``vllm serve <modelURL>
   --host 0.0.0.0 --port 8000`` followed by flags built from ``vllmConfig``
   (table ``_PRODUCTION_STACK_FLAGS``; note that the chart always emits
   ``--no-enable-prefix-caching`` unless ``enablePrefixCaching`` is true, and
   spells two flags with underscores) and then each ``vllmConfig.extraArgs``
   item.  Words the chart adds are mapped onto the values key that causes
   them (or, for fixed ones, onto the model spec's first key, zero width)
   and carry a note.  Read from the chart's template as of 2025
   (helm/templates/deployment-vllm-multi.yaml); LMCache's
   ``--kv-transfer-config`` is not modelled.
2. **A whole argv in a list**, as vLLM's own example chart has it
   (``image.command: ["vllm", "serve", "/data/", ...]``).
3. **Container specs** anywhere (``name`` + ``image`` + ``command``/``args``),
   read like a Kubernetes container.
4. **Argument lists of charts servelint does not model**: an ``args``,
   ``extraArgs`` or ``command`` list under a key path or beside keys that
   name vLLM (``vllm.extraArgs``, ``engine: VLLM``), or holding a ``vllm``
   program word.  A list holding the program (``vllm serve ...``) is read as
   that argv; a list of flags is what the chart's templates pass to vLLM,
   in a way only they show: the launch says so (``entry_unknown``).

Anything else in a values file is not guessed at.

A chart whose templates sit beside its values file is read as rendered
(``render``), for the two expression shapes ``parse.templates.values_uses``
finds: the template's launch with the default values put in, linted as the
template and as the values file (the engine reads the other file).
"""

from __future__ import annotations

import os
import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from ..structs import replace
from ..model import Entry, Form, Launch, ParseProblem, ReleaseHint, Word
from ..text import Span
from . import hints, templates
from . import yamlnodes as yn
from .launches import find_launches
from .k8s import container_launches
from .words import MStr, make_word

# vllmConfig key → flag, in the template's order.  Booleans handled apart.
_PRODUCTION_STACK_FLAGS = (
    ("maxModelLen", "--max-model-len"),
    ("dtype", "--dtype"),
    ("tensorParallelSize", "--tensor-parallel-size"),
    ("maxNumSeqs", "--max-num-seqs"),
    ("gpuMemoryUtilization", "--gpu_memory_utilization"),
    ("maxLoras", "--max_loras"),
)
_CHART_NOTE = "added by the production-stack chart's template"


def looks_like_values(root: Node | None, text: str, path: str) -> bool:
    """A Helm values file that may configure vLLM."""
    if not isinstance(root, MappingNode) or "vllm" not in text.lower():
        return False
    if yn.get(yn.get(root, "servingEngineSpec"), "modelSpec") is not None:
        return True
    name = os.path.basename(path).lower()
    return name.startswith("values") or name.endswith(("values.yaml", "values.yml"))


def parse_helm(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    src, root = doc.src, doc.root
    launches: list[Launch] = []
    specs = yn.get(yn.get(root, "servingEngineSpec"), "modelSpec")
    if isinstance(specs, SequenceNode):
        for spec in specs.value:
            if isinstance(spec, MappingNode):
                launch = _production_stack(src, spec)
                if launch is not None:
                    launches.append(launch)
    budget = yn.Budget()
    read: set[int] = set()  # argument lists read by a known shape
    for node, _ in yn.walk_maps(root, budget):
        if node is specs:
            continue
        image = yn.get(node, "image")
        if isinstance(image, MappingNode) and isinstance(yn.get(image, "command"), SequenceNode):
            launches.extend(_image_command(src, image))
            read.add(id(yn.get(image, "command")))
        elif isinstance(image, ScalarNode) and yn.get(node, "name") is not None and (
            yn.get(node, "command") is not None or yn.get(node, "args") is not None
        ):
            # A container spec (``name`` + ``image``), as charts take for
            # sidecars and extra containers.  ``image`` + ``args`` without a
            # name is the chart's own shape: its template decides (shape 4).
            launches.extend(container_launches(src, node, Form.HELM))
            read.update(id(yn.get(node, k)) for k in ("command", "args"))
    if not isinstance(specs, SequenceNode):
        launches.extend(_argument_lists(src, root, read))
    cut = budget.problem(Span(doc.span.start, doc.span.start))
    return launches, [cut] if cut is not None else []


_ARG_KEYS = ("args", "extraArgs", "extra_args", "command", "vllmArgs", "engineArgs")
_UNMODELLED = ("this values file's chart passes these arguments to vLLM in its templates, "
               "which servelint does not read: how they reach vLLM is not known")


def _argument_lists(src: yn.Src, root: Node, read: set[int], path: tuple[str, ...] = (),
                    depth: int = 0, seen: set[int] | None = None) -> list[Launch]:
    """Argument lists of charts servelint does not model (shape 4)."""
    out: list[Launch] = []
    if depth > 40 or not isinstance(root, MappingNode):
        return out
    # Each mapping once: YAML aliases (``<<: *anchor``, even one inside its
    # own anchor) make the tree a graph, with paths exponential in its depth.
    seen = set() if seen is None else seen
    if id(root) in seen:
        return out
    seen.add(id(root))
    pairs = yn.items(root)
    here = " ".join(path).lower()
    beside = " ".join(
        f"{yn.scalar_text(k) or ''} {yn.scalar_text(v) or ''}" for k, v in pairs if isinstance(v, ScalarNode)
    ).lower()
    for k, v in pairs:
        key = yn.scalar_text(k) or ""
        if key in _ARG_KEYS and isinstance(v, SequenceNode) and id(v) not in read:
            items = [item for item in v.value if isinstance(item, ScalarNode)]
            if not items or len(items) != len(v.value):
                continue
            words = [_word(src, item) for item in items]
            named = "vllm" in here or "vllm" in beside
            launch = _argument_list(src, k, v, words, named)
            if launch is not None:
                out.append(launch)
        elif isinstance(v, MappingNode):
            out.extend(_argument_lists(src, v, read, path + (key,), depth + 1, seen))
        elif isinstance(v, SequenceNode):
            for item in v.value:
                out.extend(_argument_lists(src, item, read, path + (key,), depth + 1, seen))
    return out


def _argument_list(src: yn.Src, key: Node, seq: SequenceNode, words: list[Word], named: bool) -> Launch | None:
    found = find_launches(words, form=Form.HELM)
    if found:
        launch = found[0]
    elif named and any(w.text.startswith("--") for w in words):
        launch = Launch(form=Form.HELM, entry=Entry.IMAGE, entry_span=src.span(key), args=words,
                        span=src.span(key).cover(src.span(seq)), entry_unknown=_UNMODELLED)
    else:
        return None
    if all(w in words for w in launch.args):
        launch.layout = yn.seq_layout([w.text for w in launch.args], bool(seq.flow_style))
        launch.container = yn.container_of(src, seq)
    return launch


def _image_ref(src: yn.Src, image: Node | None) -> tuple[str | None, list[ReleaseHint]]:
    """``repository:tag`` of a mapping that names an image in two keys, and
    the release it names (the hint points at the tag)."""
    repo = yn.get(image, "repository")
    tag = yn.get(image, "tag")
    if not isinstance(repo, ScalarNode) or not repo.value:
        return None, []
    if not (isinstance(tag, ScalarNode) and tag.value):
        return repo.value, []
    ref = f"{repo.value}:{tag.value}"
    found, _ = hints.scan(ref)
    span = src.span(tag)
    return ref, [ReleaseHint(h.version, span, "image", h.text) for h in found]


def _image_command(src: yn.Src, image: MappingNode) -> list[Launch]:
    cmd = yn.get(image, "command")
    words = [_word(src, item) for item in cmd.value if isinstance(item, ScalarNode)]
    ref, ref_hints = _image_ref(src, image)
    launches = find_launches(words, form=Form.HELM, image=ref)
    own = {id(w) for w in words}
    for launch in launches:
        launch.image = ref
        launch.release_hints.extend(ref_hints)
        if all(id(w) in own for w in launch.args):
            launch.layout = yn.seq_layout([w.text for w in launch.args], bool(cmd.flow_style))
            launch.container = yn.container_of(src, cmd)
    return launches


def _word(src: yn.Src, node: ScalarNode, role: str = "") -> Word:
    w = make_word(yn.mstr(src, node), src.span(node))
    w.role = role
    return w


def _synthetic(text: str, span: Span, role: str = "", note: str = _CHART_NOTE) -> Word:
    """A word the chart writes, shown over ``span``."""
    w = make_word(MStr.at(text, span), span, note=note)
    w.role = role
    return w


def _production_stack(src: yn.Src, spec: MappingNode) -> Launch | None:
    url = yn.get(spec, "modelURL")
    if not isinstance(url, ScalarNode):
        return None
    first_key = spec.value[0][0]
    anchor = src.span(first_key)
    fixed = Span(anchor.start, anchor.start)
    args: list[Word] = [_word(src, url)]
    args += [_synthetic(t, fixed) for t in ("--host", "0.0.0.0", "--port", "8000")]
    for key, flag in (("enableLoRA", "--enable-lora"), ("enableTool", "--enable-auto-tool-choice")):
        pair = yn.get_pair(spec, key)
        if pair is not None and yn.scalar_value(pair[1]) is True:
            args.append(_synthetic(flag, src.span(pair[0])))
    parser = yn.get_pair(spec, "toolCallParser")
    if parser is not None and isinstance(parser[1], ScalarNode) and parser[1].value:
        args += [_synthetic("--tool-call-parser", src.span(parser[0])), _word(src, parser[1], "config-value")]
    cfg_pair = yn.get_pair(spec, "vllmConfig")
    if cfg_pair is not None and isinstance(cfg_pair[1], MappingNode):
        args += _vllm_config_args(src, cfg_pair[0], cfg_pair[1])
    template = yn.get_pair(spec, "chatTemplate")
    if template is not None and isinstance(template[1], ScalarNode) and template[1].value:
        args += [
            _synthetic("--chat-template", src.span(template[0])),
            _synthetic("/templates/" + template[1].value, src.span(template[1]), "config-value"),
        ]
    image, ref_hints = _image_ref(src, spec)
    launch = Launch(
        form=Form.HELM,
        entry=Entry.SERVE,
        entry_span=src.span(url),
        args=args,
        span=src.span(spec),
        image=image,
        layout="yaml-mapping",
        container=yn.container_of(src, cfg_pair[1]) if cfg_pair is not None else None,
    )
    launch.release_hints.extend(ref_hints)
    return launch


def _vllm_config_args(src: yn.Src, cfg_key: Node, cfg: MappingNode) -> list[Word]:
    args: list[Word] = []
    chunked = yn.get_pair(cfg, "enableChunkedPrefill")
    if chunked is not None:
        on = yn.scalar_value(chunked[1]) if isinstance(chunked[1], ScalarNode) else True
        args.append(_synthetic("--enable-chunked-prefill" if on else "--no-enable-chunked-prefill",
                               src.span(chunked[0])))
    prefix = yn.get_pair(cfg, "enablePrefixCaching")
    if prefix is not None and isinstance(prefix[1], ScalarNode) and yn.scalar_value(prefix[1]):
        args.append(_synthetic("--enable-prefix-caching", src.span(prefix[0])))
    else:
        where = src.span(prefix[0]) if prefix is not None else src.span(cfg_key)
        args.append(_synthetic(
            "--no-enable-prefix-caching", where,
            note="the production-stack chart adds --no-enable-prefix-caching "
                 "unless vllmConfig.enablePrefixCaching is true",
        ))
    for key, flag in _PRODUCTION_STACK_FLAGS:
        pair = yn.get_pair(cfg, key)
        if pair is None or not isinstance(pair[1], ScalarNode):
            continue
        args += [_synthetic(flag, src.span(pair[0])), _word(src, pair[1], "config-value")]
    extra = yn.get(cfg, "extraArgs")
    if isinstance(extra, SequenceNode):
        args += [_word(src, item) for item in extra.value if isinstance(item, ScalarNode)]
    return args


# -- a chart's values rendered into its templates' launches ------------------------


def values_root(text: str) -> "yn.YamlDoc | None":
    """A values file's document, when it is a mapping."""
    docs, _ = yn.load_documents(text)
    for doc in docs:
        if isinstance(doc.root, MappingNode):
            return doc
    return None


def _at(root: Node, path: tuple[str, ...]) -> tuple[Node, Node] | None:
    """The (key, value) pair at ``path`` of the values; None when not set."""
    pair = None
    node = root
    for key in path:
        pair = yn.get_pair(node, key)
        if pair is None:
            return None
        node = pair[1]
    return pair


# A value that reads back as the same string wherever a template puts it:
# in a plain or quoted YAML scalar, alone or inside a word.
_SAFE_TEXT = re.compile(r"[\w./+=~,-][\w./@+=~,%:-]*")
_RESOLVER = Resolver()


def _rendered(node: Node, alone: bool) -> str | None:
    """What ``{{ .Values.x }}`` writes for the value ``node``, when that is
    sure; None otherwise (the value stays unknown).

    Helm reads values into Go's types (numbers are float64) and prints them
    with ``fmt``: true/false, a number as ``%v`` (1e+06 from a million up:
    not guessed at), a string as it is."""
    if not isinstance(node, ScalarNode):
        return None
    value = yn.scalar_value(node)
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value) if abs(value) < 10**6 else None
    elif isinstance(value, float):
        text = None
        if value == int(value) and abs(value) < 1e6:
            text = str(int(value))
    elif isinstance(value, str) and node.tag == "tag:yaml.org,2002:str":
        text = value if _SAFE_TEXT.fullmatch(value) and not value.endswith(":") else None
    else:
        return None
    if text is not None and alone and isinstance(value, str):
        # Alone in a list item, the text must read back as a string.
        if _RESOLVER.resolve(ScalarNode, text, (True, False)) != "tag:yaml.org,2002:str":
            return None
    return text


def render(launch: Launch, use: "templates.ValuesUse", values: "yn.YamlDoc", values_path: str,
           template_path: str, in_values: bool = False) -> tuple[Launch, list[Span]] | None:
    """``launch`` (of a chart template) with the values of ``values`` put
    where ``use`` says, and the spans in the values file it took; None when
    the values file sets none of them.

    Words from the values file are placed there; the template's own words
    (with a value inside, ``--port={{ .Values.port }}``: the value shown
    over the expression) stay in the template.  ``in_values``: the values
    file is the document being linted (its words carry no path, the
    template's carry ``template_path``), else the template is."""
    src, root = values.src, values.root
    values_mark = None if in_values else values_path
    template_mark = template_path if in_values else None
    used: list[Span] = []
    keys: list[Span] = []  # the keys of the values taken
    args: list[Word] = []
    inserts: dict[int, list[Word]] = {}
    for at, _span, path in use.lists:
        pair = _at(root, path)
        seq = pair[1] if pair is not None else None
        if not isinstance(seq, SequenceNode) or not all(isinstance(i, ScalarNode) for i in seq.value):
            continue
        items = [_word(src, item) for item in seq.value]
        for w in items:
            w.path = values_mark
        inserts.setdefault(at, []).extend(items)
        used.append(src.span(pair[0]).cover(src.span(seq)))
        keys.append(src.span(pair[0]))
    for i, w in enumerate(launch.args):
        args.extend(inserts.pop(i, ()))
        refs = use.words.get(i)
        got = _render_word(w, refs, src, root, values_mark, template_mark, used, keys) if refs else None
        if got is None:
            got = replace(w, path=template_mark) if in_values and w.path is None else w
        args.append(got)
    for rest in inserts.values():
        args.extend(rest)
    if not used:
        return None
    rendered = replace(launch, args=args, moved_from=None)
    image = _render_image(use.image, src, root) if use.image is not None else None
    if image is not None:
        # The image decides the release: its hint sits where the document
        # names the image (the template's expression, or the value in values.yaml).
        ref, value_span = image
        at = value_span if in_values else use.image[0]
        found, _ = hints.scan(ref)
        rendered = replace(rendered, image=ref, release_hints=list(launch.release_hints) + [
            ReleaseHint(h.version, at, "image", h.text) for h in found])
    if in_values:
        # Its place is the values file's: the template's own places
        # (problems, hints, the container and its pod) are the template's
        # lint's to report.
        rendered = replace(
            rendered, entry_span=keys[0], span=_cover(used),
            opaque=[replace(w, path=w.path or template_path) for w in launch.opaque],
            env={k: replace(v, span=None) for k, v in launch.env.items()},
            # The template's own image names the release as well: said at the launch's start.
            release_hints=[h if h not in launch.release_hints else
                           ReleaseHint(h.version, Span(keys[0].start, keys[0].start), h.kind, h.text)
                           for h in rendered.release_hints],
            problems=[], deployment=None, linked=None, pod=None, container=None,
            layout="yaml-list",
        )
    return rendered, used


def _render_image(image, src: yn.Src, root: Node) -> tuple[str, Span] | None:
    """The image reference a template's ``image:`` value renders to, and
    the span of the last value it takes (the tag, usually)."""
    span, written, refs = image
    out, k, last = [], span.start, None
    for at, path in refs:
        pair = _at(root, path)
        value = _rendered(pair[1], False) if pair is not None else None
        if value is None:
            return None
        out.append(written[k - span.start : at.start - span.start])
        out.append(value)
        k, last = at.end, src.span(pair[1])
    out.append(written[k - span.start :])
    return "".join(out), last


def _cover(spans: list[Span]) -> Span:
    return Span(min(s.start for s in spans), max(s.end for s in spans))


def _render_word(w: Word, refs: list[tuple[Span, tuple[str, ...]]], src: yn.Src, root: Node,
                 values_mark: str | None, template_mark: str | None, used: list[Span],
                 keys: list[Span]) -> Word | None:
    """``w`` with its ``.Values`` references replaced by their values; None
    when one of them is not set (the word stays unknown)."""
    whole = len(refs) == 1 and all(refs[0][0].start <= w.at(k) < refs[0][0].end for k in range(len(w.text)))
    texts = []
    for _span, path in refs:
        pair = _at(root, path)
        text = _rendered(pair[1], whole) if pair is not None else None
        if text is None:
            return None
        texts.append((text, pair[1]))
        used.append(src.span(pair[1]))
        keys.append(src.span(pair[0]))
    if whole:
        # The whole word is the value: it is written in the values file.
        text, node = texts[0]
        got = _word(src, node)
        if got.text != text:  # a number or a boolean, as Go prints it
            got = _synthetic(text, src.span(node), note=None)
        got.path = values_mark
        return got
    out, offsets = [], []
    k = 0
    n = len(w.text)
    for (span, _), (text, _node) in zip(refs, texts):
        while k < n and w.at(k) < span.start:
            out.append(w.text[k])
            offsets.append(w.at(k))
            k += 1
        out.append(text)
        offsets.extend([span.start] * len(text))
        while k < n and w.at(k) < span.end:
            k += 1
    while k < n:
        out.append(w.text[k])
        offsets.append(w.at(k))
        k += 1
    offsets.append(w.at(n))
    return Word("".join(out), w.span, offsets=offsets, role=w.role, node=w.node, path=w.path or template_mark)


def joined(own: list[Launch], rendered: list[tuple[Launch, list[Span]]]) -> list[Launch]:
    """A values file's launches once its chart's templates are rendered
    with it: the templates' launches (``render(..., in_values=True)``), in
    place of the argument lists they show how vLLM receives (shape 4);
    the file's other launches stay."""
    used = [u for _, spans in rendered for u in spans]
    kept = [launch for launch in own
            if not (launch.entry_unknown == _UNMODELLED
                    and any(u.start <= w.span.start and w.span.end <= u.end for w in launch.args for u in used))]
    return sorted(kept + [launch for launch, _ in rendered], key=lambda launch: launch.span.start)
