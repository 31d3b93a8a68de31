"""Resources of operators that start vLLM for you: KServe, llmaz, kubeai.

The resource holds a part of the argv; the operator's controller adds the
rest.  Words the operator adds are written over the field that causes them
(zero width over the resource's ``kind`` for fixed ones), with a note
naming the operator; what it adds that the resource does not show (flags
chosen by the vLLM version found at run time) is an opaque word.  The
operators' own sources, as read for this module:

* KServe ``LLMInferenceService`` (serving.kserve.io/v1alpha1, v1alpha2): the
  default ``LLMInferenceServiceConfig`` (kserve/kserve
  config/llmisvcconfig/config-llm-template.yaml and the -prefill/-decode
  and data-parallel variants, as of 2026-08) runs ``vllm serve /mnt/models
  --served-model-name {spec.model.name} ... --port 8000
  [--tensor-parallel-size {spec.parallelism.tensor}] ${VLLM_ADDITIONAL_ARGS}
  $@`` under ``eval``, ``$@`` being the main container's ``args``.  The
  model is downloaded from ``spec.model.uri`` to ``/mnt/models``; an
  ``hf://`` URI is shown as that Hugging Face id.  ``spec.prefill`` is a
  second launch (its own template and parallelism).
* KServe ``InferenceService`` (serving.kserve.io/v1beta1): a predictor
  ``model`` with ``modelFormat: vLLM`` runs the ``kserve-vllmserver``
  runtime (config/runtimes/kserve-vllmserver.yaml: ``python -m
  vllm.entrypoints.openai.api_server --port=8080
  --served-model-name={{.Name}} --model=/mnt/models``), with the model's
  ``args`` appended (``MergeRuntimeContainers``: runtime args, then the
  model's); ``modelFormat: huggingface`` runs KServe's huggingfaceserver,
  whose parser holds its own options and vLLM's engine arguments: what
  reads those args is not vLLM's parser.  Another named ``runtime`` is a
  ServingRuntime not in this document.  ``ServingRuntime`` and
  ``ClusterServingRuntime`` are read as plain containers.
* llmaz ``BackendRuntime`` (inference.llmaz.io/v1alpha1): ``spec.command``
  + each ``spec.recommendedConfigs[].args`` (older: ``spec.args[].flags``)
  is one launch; ``{{ .ModelPath }}``-style placeholders are template
  expressions (``parse.templates``); the image is ``spec.image:spec.version``.
  A ``Playground``'s ``backendRuntimeConfig.args`` follow a BackendRuntime
  configuration held elsewhere: seen, its command unknown.
* kubeai ``Model`` (kubeai.org/v1, ``engine: VLLM``): internal/modelcontroller
  engine_vllm.go runs ``python3 -m vllm.entrypoints.openai.api_server
  --model=<hf repo> --served-model-name=<name>`` + ``spec.args``, with
  ``spec.env``.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import Entry, EnvVar, Form, Launch, ParseProblem, Word
from ..text import Span
from . import yamlnodes as yn
from .launches import find_launches
from .k8s import container_env, parse_k8s
from .words import MStr, make_word, split_words

_KSERVE_LLM = "added by KServe's LLMInferenceService template"
_KSERVE_RUNTIME = "added by KServe's kserve-vllmserver runtime"
_KUBEAI = "added by kubeai's vLLM engine"


def parse_kubernetes(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    """A Kubernetes document: an operator resource's launches (before the
    "vllm" check: KServe's huggingface runtime runs vLLM without the
    resource naming it), then its containers (``k8s.parse_k8s``), those the
    resource's launches cover left out."""
    launches: list[Launch] = []
    covered: set[int] = set()
    if isinstance(doc.root, MappingNode):
        got = operator_launches(doc.src, doc.root)
        if got is not None:
            launches, covered = got
    more, found = parse_k8s(doc, text, stop_after and max(1, stop_after - len(launches)), skip=covered)
    return launches + more, found


def operator_launches(src: yn.Src, root: MappingNode) -> tuple[list[Launch], set[int]] | None:
    """The launches of an operator resource, and the ids of container
    mappings they cover (not to be read again as plain containers); None
    when ``root`` is not a resource read here."""
    api = yn.scalar_text(yn.get(root, "apiVersion")) or ""
    kind = yn.scalar_text(yn.get(root, "kind")) or ""
    group = api.split("/", 1)[0]
    if group == "serving.kserve.io" and kind == "LLMInferenceService":
        return _llm_inference_service(src, root)
    if group == "serving.kserve.io" and kind == "InferenceService":
        return _inference_service(src, root), set()
    if group == "inference.llmaz.io" and kind == "BackendRuntime":
        return _backend_runtime(src, root), set()
    if group == "inference.llmaz.io" and kind == "Playground":
        return _playground(src, root), set()
    if group == "kubeai.org" and kind == "Model":
        return _kubeai_model(src, root), set()
    return None


# -- shared ---------------------------------------------------------------------------


def _fixed(text: str, at: Span, note: str, role: str = "") -> Word:
    """A word the operator writes, shown zero-width at ``at``."""
    w = make_word(MStr.at(text, at), at, note=note)
    w.role = role
    return w


def _scalar_word(src: yn.Src, node: ScalarNode) -> Word:
    word = yn.verbatim_word(src, node)
    return word if word is not None else make_word(yn.mstr(src, node), src.span(node))


def _list_words(src: yn.Src, node: Node | None) -> list[Word]:
    if not isinstance(node, SequenceNode):
        return []
    return [_scalar_word(src, item) for item in node.value if isinstance(item, ScalarNode)]


def _kind_span(src: yn.Src, root: MappingNode) -> Span:
    node = yn.get(root, "kind")
    return src.span(node) if node is not None else src.span(root)


def _model_from_uri(src: yn.Src, uri: Node | None, at: Span, note: str) -> Word:
    """The model an operator downloads to ``/mnt/models``: an ``hf://`` URI's
    repository id (the same config.json), else the directory, unknown."""
    if isinstance(uri, ScalarNode) and uri.value.startswith("hf://") and len(uri.value) > len("hf://"):
        m = yn.mstr(src, uri)
        return make_word(m.slice(len("hf://")), Span(m.starts[len("hf://")], src.span(uri).end))
    where = f" ({uri.value})" if isinstance(uri, ScalarNode) else ""
    return make_word(MStr.at("/mnt/models", at), at, exact=False,
                     note=f"{note}: the model it downloads{where} is not known from this file")


def _env_list(src: yn.Src, container: Node | None) -> dict[str, EnvVar]:
    return container_env(src, container) if isinstance(container, MappingNode) else {}


# -- KServe LLMInferenceService ---------------------------------------------------------


def _llm_inference_service(src: yn.Src, root: MappingNode) -> tuple[list[Launch], set[int]]:
    spec = yn.get(root, "spec")
    if not isinstance(spec, MappingNode):
        return [], set()
    covered: set[int] = set()
    out = []
    roles = [(spec, _kind_span(src, root))]
    prefill = yn.get_pair(spec, "prefill")
    if prefill is not None and isinstance(prefill[1], MappingNode):
        roles.append((prefill[1], src.span(prefill[0])))
    for role, anchor in roles:
        launch = _llm_role(src, spec, role, anchor, covered)
        if launch is not None:
            out.append(launch)
    return out, covered


def _main_container(template: Node | None) -> MappingNode | None:
    containers = yn.get(template, "containers")
    if not isinstance(containers, SequenceNode):
        return None
    for c in containers.value:
        if isinstance(c, MappingNode) and yn.scalar_text(yn.get(c, "name")) == "main":
            return c
    return None


def _llm_role(src: yn.Src, spec: MappingNode, role: MappingNode, anchor: Span,
              covered: set[int]) -> Launch | None:
    main = _main_container(yn.get(role, "template"))
    if main is not None:
        covered.add(id(main))
        if yn.get(main, "command") is not None:
            # The resource sets the command itself: a plain container.
            covered.discard(id(main))
            return None
    fixed = Span(anchor.start, anchor.start)
    model = yn.get(spec, "model")
    args: list[Word] = [_model_from_uri(src, yn.get(model, "uri"), fixed, "KServe serves /mnt/models")]
    name = yn.get(model, "name")
    if isinstance(name, ScalarNode) and name.value:
        args += [_fixed("--served-model-name", src.span(name), _KSERVE_LLM), _scalar_word(src, name)]
    args += [_fixed("--port", fixed, _KSERVE_LLM), _fixed("8000", fixed, _KSERVE_LLM)]
    par = yn.get(role, "parallelism") or (yn.get(spec, "parallelism") if role is spec else None)
    for key, flag in (("tensor", "--tensor-parallel-size"), ("data", "--data-parallel-size"),
                      ("dataLocal", "--data-parallel-size-local")):
        pair = yn.get_pair(par, key)
        if pair is not None and isinstance(pair[1], ScalarNode) and pair[1].value:
            args += [_fixed(flag, src.span(pair[0]), _KSERVE_LLM), _scalar_word(src, pair[1])]
    expert = yn.get_pair(par, "expert")
    if expert is not None and yn.scalar_value(expert[1]) is True:
        args.append(_fixed("--enable-expert-parallel", src.span(expert[0]), _KSERVE_LLM))
    env = _env_list(src, main)
    args += _additional_args(src, main)
    args += _list_words(src, yn.get(main, "args"))
    span = anchor
    for w in args:
        if w.span.end > w.span.start:
            span = span.cover(w.span)
    if main is not None:
        span = span.cover(src.span(main))
    main_args = yn.get(main, "args")
    launch = Launch(
        form=Form.KUBERNETES, entry=Entry.SERVE, entry_span=anchor, args=args, span=span, env=env,
        container=yn.container_of(src, main_args) if isinstance(main_args, SequenceNode) else None,
        image=yn.scalar_text(yn.get(main, "image")) if main is not None else None,
        opaque=[Word("", fixed, exact=False,
                     note="flags KServe's template adds for the vLLM version it finds at run time "
                          "(access log, shutdown timeout, KV transfer, TLS)")],
    )
    if yn.get(spec, "baseRefs") is not None:
        launch.entry_unknown = ("spec.baseRefs names LLMInferenceServiceConfigs, not in this file, "
                                "that may replace KServe's command")
    return launch


def _additional_args(src: yn.Src, main: MappingNode | None) -> list[Word]:
    """``VLLM_ADDITIONAL_ARGS`` of the main container: KServe's template
    ``eval``s it, so its text is split like a shell command line."""
    env = yn.get(main, "env")
    if not isinstance(env, SequenceNode):
        return []
    for item in env.value:
        if yn.scalar_text(yn.get(item, "name")) != "VLLM_ADDITIONAL_ARGS":
            continue
        value = yn.get(item, "value")
        if not isinstance(value, ScalarNode):
            return [Word("", src.span(item), exact=False, note="VLLM_ADDITIONAL_ARGS is set at run time")]
        m = yn.mstr(src, value)
        return split_words(MStr(m.text, list(m.starts), list(m.ends)), [False] * len(m.text))
    return []


# -- KServe InferenceService ------------------------------------------------------------


def _inference_service(src: yn.Src, root: MappingNode) -> list[Launch]:
    predictor = yn.get(yn.get(root, "spec"), "predictor")
    model = yn.get(predictor, "model")
    if not isinstance(model, MappingNode) or yn.get(model, "command") is not None:
        return []  # a custom container is read as one
    fmt = (yn.scalar_text(yn.get(yn.get(model, "modelFormat"), "name")) or "").lower()
    runtime = yn.scalar_text(yn.get(model, "runtime"))
    args = _list_words(src, yn.get(model, "args"))
    env = _env_list(src, model)
    anchor = _kind_span(src, root)
    span = anchor.cover(src.span(model))
    image = yn.scalar_text(yn.get(model, "image"))
    if fmt == "vllm" and runtime in (None, "kserve-vllmserver"):
        fixed = Span(anchor.start, anchor.start)
        name = yn.get(yn.get(root, "metadata"), "name")
        served = [_fixed("--port=8080", fixed, _KSERVE_RUNTIME)]
        if isinstance(name, ScalarNode):
            served.append(_fixed("--served-model-name=" + name.value, src.span(name), _KSERVE_RUNTIME))
        model_word = _model_from_uri(src, yn.get(model, "storageUri"), fixed, "KServe serves /mnt/models")
        flag = make_word(MStr.at("--model=", model_word.span) + MStr.mapped(model_word.text, [
            model_word.at(k) for k in range(len(model_word.text) + 1)]), model_word.span,
            exact=model_word.exact, note=model_word.note)
        return [Launch(form=Form.KUBERNETES, entry=Entry.API_SERVER, entry_span=anchor,
                       args=served + [flag] + args, span=span, env=env, image=image)]
    if fmt == "vllm" or (fmt == "huggingface" and runtime in (None, "kserve-huggingfaceserver")):
        if fmt == "vllm":
            why = f"the ServingRuntime `{runtime}` (not in this file) decides the command"
        else:
            why = ("KServe's huggingfaceserver reads these arguments: its own options (--model_id, "
                   "--model_name, --backend, ...) with vLLM's engine arguments, not vLLM's server parser")
        return [Launch(form=Form.KUBERNETES, entry=Entry.IMAGE, entry_span=anchor, args=args, span=span,
                       env=env, image=image, entry_unknown=why)]
    return []


# -- llmaz BackendRuntime -------------------------------------------------------------------


def _backend_runtime(src: yn.Src, root: MappingNode) -> list[Launch]:
    spec = yn.get(root, "spec")
    command = _list_words(src, yn.get(spec, "command"))
    if not command:
        return []
    image = yn.scalar_text(yn.get(spec, "image"))
    version = yn.scalar_text(yn.get(spec, "version"))
    if image and version:
        image = f"{image}:{version}"
    configs: list[tuple[Node, Node | None]] = []
    for key, field in (("recommendedConfigs", "args"), ("args", "flags")):
        lst = yn.get(spec, key)
        if isinstance(lst, SequenceNode):
            configs += [(c, yn.get(c, field)) for c in lst.value if isinstance(c, MappingNode)]
    out = []
    for config, args_node in configs or [(spec, None)]:
        args = _list_words(src, args_node)
        for launch in find_launches(command + args, form=Form.KUBERNETES, image=image):
            launch.image = image
            launch.span = launch.span.cover(src.span(config))
            if isinstance(args_node, SequenceNode) and all(w in args for w in launch.args):
                launch.layout = yn.seq_layout([w.text for w in launch.args], bool(args_node.flow_style))
                launch.container = yn.container_of(src, args_node)
            out.append(launch)
    return out


def _playground(src: yn.Src, root: MappingNode) -> list[Launch]:
    """A Playground adds ``backendRuntimeConfig.args`` to a BackendRuntime's
    configuration, which is another resource: the command is not known here."""
    config = yn.get(yn.get(root, "spec"), "backendRuntimeConfig")
    backend = yn.scalar_text(yn.get(config, "backendName")) or "vllm"  # llmaz's default backend
    args_node = yn.get(config, "args")
    if "vllm" not in backend.lower() or not isinstance(args_node, SequenceNode):
        return []
    name = yn.scalar_text(yn.get(config, "configName")) or "default"
    anchor = _kind_span(src, root)
    args = _list_words(src, args_node)
    launch = Launch(
        form=Form.KUBERNETES, entry=Entry.IMAGE, entry_span=anchor, args=args,
        span=anchor.cover(src.span(args_node)),
        entry_unknown=(f"the BackendRuntime `{backend}` (not in this file) decides the command; "
                       f"these arguments follow its `{name}` configuration's"),
        layout=yn.seq_layout([w.text for w in args], bool(args_node.flow_style)),
        container=yn.container_of(src, args_node),
    )
    return [launch]


# -- kubeai Model -------------------------------------------------------------------------------


def _kubeai_model(src: yn.Src, root: MappingNode) -> list[Launch]:
    spec = yn.get(root, "spec")
    if (yn.scalar_text(yn.get(spec, "engine")) or "").lower() != "vllm":
        return []
    anchor = _kind_span(src, root)
    fixed = Span(anchor.start, anchor.start)
    url = yn.get(spec, "url")
    args: list[Word] = []
    if (isinstance(url, ScalarNode) and url.value.startswith("hf://") and len(url.value) > len("hf://")
            and yn.get(spec, "cacheProfile") is None):
        m = yn.mstr(src, url)
        repo = m.slice(len("hf://"))
        args.append(make_word(MStr.at("--model=", src.span(url)) + repo, src.span(url)))
    else:
        args.append(_fixed("--model=", fixed, _KUBEAI))
        args[-1].exact, args[-1].note = False, "kubeai chooses the model path (spec.url, spec.cacheProfile)"
    name = yn.get(yn.get(root, "metadata"), "name")
    if isinstance(name, ScalarNode):
        args.append(_fixed("--served-model-name=" + name.value, src.span(name), _KUBEAI))
    args_node = yn.get(spec, "args")
    own = _list_words(src, args_node)
    env: dict[str, EnvVar] = {}
    for k, v in yn.items(yn.get(spec, "env")):
        if isinstance(k, ScalarNode) and isinstance(v, ScalarNode):
            env[k.value] = EnvVar(k.value, v.value, src.span(v), True)
    launch = Launch(form=Form.KUBERNETES, entry=Entry.API_SERVER, entry_span=anchor, args=args + own,
                    span=anchor.cover(src.span(spec)), env=env)
    if isinstance(args_node, SequenceNode) and own:
        launch.container = yn.container_of(src, args_node)
        launch.layout = yn.seq_layout([w.text for w in own], bool(args_node.flow_style))
    return [launch]


__all__ = ["operator_launches"]
