"""Kubernetes manifests: every container, at any depth, whose argv launches vLLM.

A container's argv is ``command`` + ``args``; without ``command`` the image's
entrypoint runs with ``args`` (``vllm/vllm-openai`` runs ``vllm serve``).
Containers are found wherever a ``containers:`` (or ``initContainers:``)
list sits, so Deployments, StatefulSets, Jobs, Pods, LeaderWorkerSet
leader/worker templates and CRDs that embed pod specs all work the same way.

Before anything runs, the kubelet expands ``$(VAR)`` in ``command``/``args``
from the container's ``env`` (``$$`` escapes a dollar; an unknown name stays
literally ``$(VAR)``).  That happens before any shell, so a ``bash -c``
script is expanded first, then handed to the shell parser, where a
``$(VAR)`` left over is a command substitution.

A ConfigMap whose ``data`` holds a vLLM ``--config`` YAML is read as that
config, with offsets into the block scalar.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import EnvVar, Form, Launch, ParseProblem, ReleaseHint, Word
from ..text import Span
from . import deployment, hints, problems
from . import yamlnodes as yn
from .entry import could_start_launch, is_vllm_openai_image, repository_written
from .launches import find_launches
from .vllm_config import config_launch, looks_like_vllm_config
from .words import MStr, make_word


_CONTAINER_LISTS = ("initContainers", "containers", "ephemeralContainers")


def is_kubernetes(root: Node | None) -> bool:
    return isinstance(root, MappingNode) and yn.get(root, "apiVersion") is not None and (
        yn.get(root, "kind") is not None
    )


def parse_k8s(doc: yn.YamlDoc, text: str, stop_after: int = 0,
              skip: "set[int] | frozenset[int]" = frozenset()) -> tuple[list[Launch], list[ParseProblem]]:
    """Launches of one Kubernetes document's containers (``text`` is the
    document's chunk, used only for quick "can this hold vLLM?" checks);
    with ``stop_after``, about that many (a ``List`` of thousands of pods).
    ``skip``: ids of container mappings read already (``operators``)."""
    launches: list[Launch] = []
    found: list[ParseProblem] = []
    src = doc.src
    may_run_vllm = "vllm" in text.lower()
    budget = yn.Budget()
    pods = deployment.Pods(src, doc.root)
    for node, _ in yn.walk_maps(doc.root, budget):
        keys = yn.index(node)  # every mapping of the document: one lookup table
        pods.see(node, keys)
        kind = keys.get("kind")
        if kind is not None and yn.scalar_text(kind[1]) == "ConfigMap":
            launches.extend(_configmap(src, node))
        if not may_run_vllm:
            continue
        for key in _CONTAINER_LISTS:
            pair = keys.get(key)
            lst = pair[1] if pair is not None else None
            if not isinstance(lst, SequenceNode):
                continue
            for c in lst.value:
                if isinstance(c, MappingNode) and id(c) not in skip:
                    got = container_launches(src, c, Form.KUBERNETES)
                    pods.attach(got, node, c)
                    launches.extend(got)
        if stop_after and len(launches) >= stop_after:
            break
    cut = budget.problem(Span(doc.span.start, doc.span.start))
    if cut is not None:
        found.append(cut)
    return launches, found


def container_launches(src: yn.Src, c: MappingNode, form: Form) -> list[Launch]:
    """The vLLM launches of one container spec (also used for CRDs/Helm)."""
    if "vllm" not in src.text[src.start(c) : src.end(c)].lower():
        return []
    image_node = yn.get(c, "image")
    image = image_node.value if isinstance(image_node, ScalarNode) and image_node.value else None
    image_span = src.span(image_node) if image_node is not None else None
    env = container_env(src, c)
    env_from = yn.get(c, "envFrom") is not None
    cmd_node, args_node = yn.get(c, "command"), yn.get(c, "args")
    item_problems: list[ParseProblem] = []
    unset: dict[int, list[ParseProblem]] = {}
    cmd = _argv(src, cmd_node, "command", env, env_from, item_problems, unset)
    args = _argv(src, args_node, "args", env, env_from, item_problems, unset)
    unknown_image = image is not None and not repository_written(image)
    if cmd_node is None:
        name = yn.scalar_text(yn.get(c, "name")) or ""
        if image is None and "vllm" not in name.lower():
            return []
        if unknown_image:
            # ``image: {{ .Values.image }}``: what it runs is not known.
            if args and could_start_launch(args[0].text):
                launches = find_launches(args, form=form, env=env, expand="k8s")
            else:
                launches = find_launches(args, form=form, env=env, image_entrypoint=True,
                                         image_span=image_span or src.span(c), expand="k8s")
                for launch in launches:
                    launch.entry_unknown = f"the image is `{image}`, not known from this file, so neither is what it runs"
        elif image is not None and not _entrypoint_is_vllm(image, args):
            # An image without an ENTRYPOINT runs ``args`` as the command.
            launches = find_launches(args, form=form, env=env, image=image, expand="k8s")
        else:
            launches = find_launches(
                args, form=form, env=env, image=image, image_entrypoint=True,
                image_span=image_span or src.span(c), expand="k8s",
            )
    else:
        launches = find_launches(cmd + args, form=form, env=env, image=image, expand="k8s")
    own = {id(w) for w in cmd + args}
    seq = args_node if isinstance(args_node, SequenceNode) and args_node.value else cmd_node
    for launch in launches:
        if image is not None and not unknown_image:
            launch.image = image
            launch.release_hints.extend(image_hints(src, image_node))
        elif unknown_image:
            launch.image = None
        launch.problems.extend(_own_problems(launch, launches, item_problems))
        # A $(NAME) left in a script is bash's command substitution, not a
        # missing variable: only argv words the launch received are checked.
        for w in launch.args:
            launch.problems.extend(unset.get(id(w), ()))
        if all(id(w) in own for w in launch.args) and isinstance(seq, SequenceNode):
            launch.layout = yn.seq_layout([w.text for w in launch.args], bool(seq.flow_style))
            launch.container = yn.container_of(src, seq)
    return launches


def _own_problems(launch: Launch, launches: list[Launch], found: list[ParseProblem]) -> list[ParseProblem]:
    """Item problems inside this launch; those outside every launch (an item
    before a script's launch) go to the first one."""
    mine = []
    for p in found:
        inside = [l for l in launches if l.span.overlaps(p.span)]
        if (inside and inside[0] is launch) or (not inside and launch is launches[0]):
            mine.append(p)
    return mine


def _entrypoint_is_vllm(image: str, args: list[Word]) -> bool:
    """Whether args without ``command`` go to a ``vllm serve`` entrypoint:
    upstream images always; another image named like vLLM only when the
    args are flags (otherwise they are more likely a program to run)."""
    if is_vllm_openai_image(image):
        return True
    return "vllm" in image.lower() and (not args or args[0].text.startswith("-"))


def image_hints(src: yn.Src, image_node: Node | None) -> list[ReleaseHint]:
    """Release hints in an image reference, with document spans."""
    if not isinstance(image_node, ScalarNode):
        return []
    m = src.scalar(image_node)
    found, _ = hints.scan(m.text)
    out = []
    for h in found:
        span = Span(m.offsets[h.span.start], m.offsets[h.span.end])
        out.append(ReleaseHint(h.version, span, "image", h.text))
    return out


# -- env -------------------------------------------------------------------------


def container_env(src: yn.Src, c: MappingNode) -> dict[str, EnvVar]:
    """A container's ``env`` list, each value expanded against the ones
    before it (as the kubelet does)."""
    env: dict[str, EnvVar] = {}
    lst = yn.get(c, "env")
    if not isinstance(lst, SequenceNode):
        return env
    for item in lst.value:
        name_node = yn.get(item, "name")
        if not isinstance(name_node, ScalarNode):
            continue
        name = name_node.value
        value_node = yn.get(item, "value")
        if yn.get(item, "valueFrom") is not None:
            env[name] = EnvVar(name, None, src.span(name_node), False)
        elif isinstance(value_node, ScalarNode):
            m, exact, _, _ = expand(yn.mstr(src, value_node), env, env_from=False)
            env[name] = EnvVar(name, m.text, src.span(value_node), exact)
        else:  # no value: the empty string
            env[name] = EnvVar(name, "", src.span(name_node), True)
    return env


# -- argv --------------------------------------------------------------------------


def _argv(
    src: yn.Src,
    node: Node | None,
    field: str,
    env: dict[str, EnvVar],
    env_from: bool,
    found: list[ParseProblem],
    unset_refs: dict[int, list[ParseProblem]],
) -> list[Word]:
    if node is None:
        return []
    if not isinstance(node, SequenceNode):
        found.append(
            ParseProblem(
                problems.FORM_VALUE,
                f"Kubernetes requires `{field}` to be a list of strings",
                src.span(node),
            )
        )
        return []
    words: list[Word] = []
    for item in node.value:
        if not isinstance(item, ScalarNode):
            found.append(
                ParseProblem(
                    problems.FORM_VALUE,
                    f"Kubernetes requires {field} items to be strings, not a "
                    f"{'list' if isinstance(item, SequenceNode) else 'mapping'}",
                    src.span(item),
                )
            )
            continue
        span = src.span(item)
        if item.tag != yn.STR:
            found.append(
                ParseProblem(
                    problems.FORM_VALUE,
                    f"Kubernetes requires {field} to be strings; quote it "
                    f"(`\"{item.value}\"`)",
                    span,
                    data={"replacement": '"' + item.value.replace('"', '\\"') + '"'},
                )
            )
            if item.value == "":
                continue
        word = yn.verbatim_word(src, item, span)
        if word is not None and "$" not in word.text:
            words.append(word)
            continue
        m, exact, note, unset = expand(yn.mstr(src, item), env, env_from)
        word = make_word(m, span, exact=exact, note=note)
        words.append(word)
        for name, ref in unset:
            unset_refs.setdefault(id(word), []).append(
                ParseProblem(
                    problems.UNSET_VARIABLE,
                    f"`$({name})` is not defined in this container's env, so "
                    f"the program receives the literal text `$({name})`",
                    ref,
                    "warning",
                    data={"name": name},
                )
            )
    return words


def expand(
    m: MStr, env: dict[str, EnvVar], env_from: bool
) -> tuple[MStr, bool, str | None, list[tuple[str, Span]]]:
    """Kubernetes ``$(VAR)`` expansion (k8s.io/kubernetes third_party
    expansion.Expand): ``$$`` → ``$``, ``$(NAME)`` → the variable's value or,
    if unknown, left as written; any other ``$`` is literal.

    Returns the expanded string, whether it is exact, a note, and the
    references that stay literal because no such variable exists.
    """
    text = m.text
    if "$" not in text:
        return m, True, None, []
    out = MStr.empty()
    exact, note = True, None
    unset: list[tuple[str, Span]] = []
    checkpoint = 0
    i = 0
    n = len(text)
    while i < n:
        if text[i] != "$" or i + 1 >= n:
            i += 1
            continue
        out = out + m.slice(checkpoint, i)
        nxt = text[i + 1]
        if nxt == "$":
            out = out + MStr("$", [m.starts[i]], [m.ends[i + 1]])
            i += 2
        elif nxt == "(":
            close = text.find(")", i + 2)
            if close < 0:
                out = out + m.slice(i, i + 2)
                i += 2
            else:
                name = text[i + 2 : close]
                ref = Span(m.starts[i], m.ends[close])
                var = env.get(name)
                if var is None:
                    out = out + m.slice(i, close + 1)
                    if env_from:
                        exact = False
                        note = f"$({name}) may come from envFrom at run time"
                    else:
                        unset.append((name, ref))
                elif var.value is None or not var.exact:
                    # Known only at run time: keep what is written.
                    kept = m.slice(i, close + 1) if var.value is None else MStr.at(var.value, ref)
                    out = out + kept
                    exact = False
                    note = f"$({name}) is set at run time"
                else:
                    out = out + MStr.at(var.value, ref)
                i = close + 1
        else:
            out = out + m.slice(i, i + 2)
            i += 2
        checkpoint = i
    out = out + m.slice(checkpoint, n)
    return out, exact, note, unset


# -- ConfigMaps --------------------------------------------------------------------


def _configmap(src: yn.Src, node: MappingNode) -> list[Launch]:
    """``data:`` entries that are vLLM --config files, read in place."""
    data = yn.get(node, "data")
    if not isinstance(data, MappingNode):
        return []
    out = []
    for k, v in yn.items(data):
        if not (isinstance(k, ScalarNode) and isinstance(v, ScalarNode)):
            continue
        if not k.value.endswith((".yaml", ".yml")) or ":" not in v.value:
            continue
        m = src.scalar(v)
        roots, problem = yn.compose_text(m.text)
        if problem is not None or len(roots) != 1 or not looks_like_vllm_config(roots[0]):
            continue
        inner = yn.Src(m.text, 0, m.offsets)
        out.append(config_launch(inner, roots[0], Form.VLLM_CONFIG))
    return out
