"""docker-compose files: services whose container launches vLLM.

A service's argv is ``entrypoint`` + ``command``; without ``entrypoint`` the
image's own entrypoint runs ``command`` (``vllm/vllm-openai`` runs ``vllm
serve``).  YAML anchors and ``<<:`` merge keys are applied first.

Compose interpolates ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``,
``${VAR:?err}``, ``${VAR:+alt}`` and ``$VAR`` in every string, from the
host's environment and the ``.env`` file next to the compose file (never
from the service's own ``environment:``); ``$$`` is a literal ``$``.  Neither
source is known here, so a word with a substitution is marked inexact; with a
default, the default stands in for the value.

A ``command:`` string is split into words the way compose does it (the
go-shellwords rules, without a shell): quotes and backslashes are honoured,
nothing is expanded, and an unquoted ``;``, ``&``, ``|``, ``<`` or ``>``
ends the command (the rest is silently dropped, reported as a problem).
This is done here rather than with the shell parser because compose never
runs a shell.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


from ..structs import replace
from ..model import Entry, EnvVar, Form, ImageBuild, Launch, ParseProblem, Word
from ..text import Span
from . import deployment, problems
from . import yamlnodes as yn
from .entry import is_vllm_openai_image, repository_written
from .launches import find_launches
from .k8s import image_hints
from .words import MStr, make_word, split_words


def is_compose(root: Node | None) -> bool:
    services = yn.get(root, "services")
    if not isinstance(services, MappingNode):
        return False
    for _, svc in yn.items(services):
        if isinstance(svc, MappingNode) and any(
            k in ("image", "build", "command", "entrypoint") for k in yn.keys(svc)
        ):
            return True
    return False


def parse_compose(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    """The launches of a compose file's services; with ``stop_after``, no
    more than that many."""
    launches: list[Launch] = []
    if "vllm" not in text.lower() and "build" not in text:
        # (A built image may be vLLM's without the file naming it: the
        # Dockerfile says, see ``with_built_image``.)
        return launches, []
    services = yn.get(doc.root, "services")
    for key, svc in yn.items(services):
        if isinstance(svc, MappingNode):
            got = _service(doc.src, svc, yn.scalar_text(key) or "")
            for launch in got:
                launch.deployment = deployment.of_compose_service(doc.src, yn.scalar_text(key) or "", svc, launch.env)
            launches.extend(got)
            if stop_after and len(launches) >= stop_after:
                break
    return launches, []


def _service(src: yn.Src, svc: MappingNode, name: str = "") -> list[Launch]:
    image_node = yn.get(svc, "image")
    image_word = _string(src, image_node) if isinstance(image_node, ScalarNode) else None
    image = image_word.text if image_word is not None and image_word.text else None
    build = _build(src, yn.get(svc, "build"))
    env = _environment(src, yn.get(svc, "environment"))
    found: list[ParseProblem] = []
    cmd_node, ep_node = yn.get(svc, "command"), yn.get(svc, "entrypoint")
    unknown: list[Span] = []
    cmd = _argv(src, cmd_node, found, unknown)
    unknown_image = image_word is not None and not image_word.exact and not repository_written(image)
    if ep_node is not None:
        # ``entrypoint: []`` or "" clears the image's entrypoint.
        launches = find_launches(_argv(src, ep_node, found, unknown) + cmd, form=Form.COMPOSE,
                                 env=env, image=image)
    elif build is not None or unknown_image:
        launches = _unknown_entrypoint(src, svc, name, cmd, env, image, image_node, build)
    elif image is not None and _entrypoint_is_vllm(image, cmd):
        launches = find_launches(cmd, form=Form.COMPOSE, env=env, image=image,
                                 image_entrypoint=True, image_span=src.span(image_node))
    else:
        launches = find_launches(cmd, form=Form.COMPOSE, env=env, image=image)
    own = {id(w) for w in cmd}
    for launch in launches:
        _mark_unknown(launch, unknown)
        launch.problems.extend(found)
        launch.build = build
        if unknown_image:
            launch.image = None
        elif image is not None:
            launch.image = image
            launch.release_hints.extend(image_hints(src, image_node))
        if isinstance(cmd_node, SequenceNode) and all(id(w) in own for w in launch.args):
            launch.layout = yn.seq_layout([w.text for w in launch.args], bool(cmd_node.flow_style))
            launch.container = yn.container_of(src, cmd_node)
    return launches


def _build(src: yn.Src, node: Node | None) -> ImageBuild | None:
    """``build: ./dir`` or ``build: {context, dockerfile, target}``."""
    if isinstance(node, ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return ImageBuild(_string(src, node).text or ".", None, src.span(node))
    if not isinstance(node, MappingNode):
        return None
    context = yn.get(node, "context")
    dockerfile = yn.get(node, "dockerfile")
    target = yn.get(node, "target")
    return ImageBuild(
        _string(src, context).text if isinstance(context, ScalarNode) else ".",
        _string(src, dockerfile).text if isinstance(dockerfile, ScalarNode) and dockerfile.value else None,
        src.span(node),
        target.value if isinstance(target, ScalarNode) and target.value else None,
    )


def _unknown_entrypoint(src: yn.Src, svc: MappingNode, name: str, cmd: list[Word], env: dict[str, EnvVar],
                        image: str | None, image_node: Node | None, build: ImageBuild | None) -> list[Launch]:
    """A service whose image's entrypoint the file does not show: built from
    a Dockerfile (``build:``), or named by a variable compose fills in.

    A ``command`` that starts with a program (``vllm serve``) is read as that
    program; flags alone go to the unknown entrypoint.  Either way the
    launch says it (``entry_unknown``): a Dockerfile may set an ENTRYPOINT
    that changes how ``command`` runs.  ``with_built_image`` reads the
    Dockerfile once the engine has it.
    """
    if build is not None:
        why = (f"the image is built from {build.path} (build context {build.context}): "
               "what it runs is in that Dockerfile")
    else:
        why = f"the image is `{image}`, filled in by compose from the environment, so what it runs is not known"
    launches = find_launches(cmd, form=Form.COMPOSE, env=env, image=image)
    if not launches:
        named = "vllm" in (name + src.text[src.start(svc) : src.end(svc)]).lower()
        if not any(w.text.startswith("--") for w in cmd):
            return []  # no arguments a server would take (``npm start``)
        if build is None and not named:
            return []  # nothing says this service runs vLLM
        if build is not None and not named:
            if not _HUB_ID.match(cmd[0].text) and not cmd[0].text.startswith("-"):
                return []  # a program of the image (``gunicorn app:app --workers 4``)
            why += "; nothing in this file says it is vLLM"
        anchor = src.span(image_node) if image_node is not None else build.span
        launches = find_launches(cmd, form=Form.COMPOSE, env=env, image=image, image_entrypoint=True,
                                 image_span=anchor)
    for launch in launches:
        launch.entry_unknown = why
    if build is not None:
        build.command = list(cmd)
    return launches


# ``org/name``: a Hugging Face model id, as ``vllm serve``'s first argument.
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+$")


def with_built_image(launch: Launch, dockerfile_text: str, dockerfile_path: str | None = None) -> Launch | None:
    """``launch`` (a compose service with ``build:``) once its Dockerfile is read.

    The engine calls this with the text of ``launch.build.path`` (relative to
    the compose file); parsing never reads files.  The built stage (the
    ``target``, else the last) decides, as far as the Dockerfile shows it:
    its own exec-form ENTRYPOINT runs the service's ``command``, and so does
    ``vllm serve`` when it is built ``FROM vllm/vllm-openai`` without one.
    Words the Dockerfile adds carry its path.  Anything else (another base
    image, whose entrypoint only that image knows; a shell-form
    ENTRYPOINT) leaves the entry unknown, with the reason.  None: the
    Dockerfile shows the service does not start vLLM (its exec-form
    ENTRYPOINT is another program): not a launch.
    """
    from .dockerfile import built_stage

    build = launch.build
    stage = built_stage(dockerfile_text, build.target if build is not None else None)
    where = dockerfile_path or (build.path if build is not None else "the Dockerfile")
    if stage is None:
        return replace(launch, entry_unknown=f"{where} has no build stage to read")
    # What the service gives the image: its command (a program or flags).
    given = list(build.command) if build is not None else list(launch.args)
    if stage.entrypoint is not None:
        if stage.entrypoint_shell:
            return replace(launch, entry_unknown=f"{where} has a shell-form ENTRYPOINT, which ignores `command:`")
        inner = [replace(w, path=where) for w in stage.entrypoint]
        found = find_launches(inner + given, form=Form.COMPOSE, env=dict(launch.env), image=stage.image)
        if not found:
            return None
        got = found[0]
        return replace(launch, entry=got.entry, args=got.args, entry_unknown=None,
                       problems=launch.problems + got.problems, image=launch.image or stage.image)
    if stage.image is not None and is_vllm_openai_image(stage.image):
        # The base image's ``vllm serve`` runs whatever the service gives.
        found = find_launches(given, form=Form.COMPOSE, env=dict(launch.env), image=stage.image,
                              image_entrypoint=True, image_span=launch.entry_span)
        got = found[0]
        return replace(launch, entry=got.entry, args=got.args, entry_unknown=None,
                       problems=launch.problems + got.problems, image=launch.image or stage.image)
    return replace(launch, entry_unknown=(
        f"the image is built FROM {stage.image or 'an unknown image'} ({where}), "
        "whose entry point this Dockerfile does not show"))


def _mark_unknown(launch: Launch, unknown: list[Span]) -> None:
    """A ``sh -c`` script hands the shell only text: words built from what
    compose interpolated from the host are marked inexact afterwards."""
    if not unknown:
        return
    for w in launch.args:
        if w.exact and any(w.span.overlaps(u) for u in unknown):
            w.exact = False
            w.note = _NOTE


def _entrypoint_is_vllm(image: str, cmd: list[Word]) -> bool:
    if is_vllm_openai_image(image):
        return True
    return "vllm" in image.lower() and (not cmd or cmd[0].text.startswith("-"))


# -- strings and interpolation -------------------------------------------------------


def _string(src: yn.Src, node: ScalarNode, unknown: list[Span] | None = None) -> Word:
    """A scalar after interpolation, as one word."""
    word = yn.verbatim_word(src, node)
    if word is not None and "$" not in word.text:
        return word
    m, inexact = interpolate(yn.mstr(src, node))
    if unknown is not None:
        _collect_unknown(m, inexact, unknown)
    return make_word(m, src.span(node), exact=not any(inexact), note=_note(inexact, m))


_NOTE = "set by compose interpolation from the host environment or .env"


def _note(inexact: list[bool], m: MStr) -> str | None:
    return _NOTE if any(inexact) else None


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def interpolate(m: MStr) -> tuple[MStr, list[bool]]:
    """Compose's variable interpolation.  Returns the string and, per
    character, whether it comes from an unknown variable."""
    text = m.text
    if "$" not in text:
        return m, [False] * len(text)
    out = MStr.empty()
    flags: list[bool] = []
    i, n = 0, len(text)
    start = 0
    while i < n:
        if text[i] != "$":
            i += 1
            continue
        out, flags = out + m.slice(start, i), flags + [False] * (i - start)
        nxt = text[i + 1] if i + 1 < n else ""
        if nxt == "$":
            out, flags = out + MStr("$", [m.starts[i]], [m.ends[i + 1]]), flags + [False]
            i += 2
        elif nxt == "{":
            close = _closing_brace(text, i + 2)
            if close < 0:
                out, flags = out + m.slice(i, n), flags + [False] * (n - i)
                i = n
            else:
                piece, pflags = _braced(m, i, close)
                out, flags = out + piece, flags + pflags
                i = close + 1
        else:
            name = _NAME.match(text, i + 1)
            if name:
                end = name.end()
                out, flags = out + m.slice(i, end), flags + [True] * (end - i)
                i = end
            else:
                out, flags = out + m.slice(i, i + 1), flags + [False]
                i += 1
        start = i
    out, flags = out + m.slice(start, n), flags + [False] * (n - start)
    return out, flags


def _closing_brace(text: str, i: int) -> int:
    depth = 1
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _braced(m: MStr, i: int, close: int) -> tuple[MStr, list[bool]]:
    """``${...}`` at ``m.text[i:close+1]``."""
    body = m.text[i + 2 : close]
    name = _NAME.match(body)
    whole = m.slice(i, close + 1)
    if not name:
        return whole, [True] * len(whole)
    rest = body[name.end() :]
    for op in (":-", "-"):
        if rest.startswith(op):
            # The default stands in for a value the host may set.
            at = i + 2 + name.end() + len(op)
            default, _ = interpolate(m.slice(at, close))
            ref = Span(m.starts[i], m.ends[close])
            if not default.text:
                return MStr.at("", ref), []
            # The default's characters point at the default, but the first
            # and last stretch over the whole reference, so a word made of
            # it covers ``${NAME:-default}`` as written.
            starts, ends = list(default.starts), list(default.ends)
            starts[0], ends[-1] = ref.start, ref.end
            return MStr(default.text, starts, ends), [True] * len(default.text)
    return whole, [True] * len(whole)


# -- command lists and strings --------------------------------------------------------


def _argv(
    src: yn.Src, node: Node | None, found: list[ParseProblem], unknown: list[Span]
) -> list[Word]:
    """A command or entrypoint; ``unknown`` collects where interpolation put
    values that are not known here."""
    if node is None:
        return []
    if isinstance(node, SequenceNode):
        words = []
        for item in node.value:
            if isinstance(item, ScalarNode):
                w = _string(src, item, unknown)
                words.append(w)
        return words
    if isinstance(node, ScalarNode):
        if node.tag == "tag:yaml.org,2002:null":
            return []
        m, inexact = interpolate(yn.mstr(src, node))
        _collect_unknown(m, inexact, unknown)
        return split_command(m, inexact, found)
    return []


def _collect_unknown(m: MStr, inexact: list[bool], unknown: list[Span]) -> None:
    for k, flag in enumerate(inexact):
        if flag:
            unknown.append(Span(m.starts[k], max(m.starts[k], m.ends[k])))


def split_command(m: MStr, inexact: list[bool], found: list[ParseProblem]) -> list[Word]:
    """go-shellwords' split of a compose command string (no expansion)."""

    def stop(c: str, rest: Span) -> None:
        found.append(
            ParseProblem(
                problems.FORM_VALUE,
                f"compose splits a command string without a shell and stops at "
                f"`{c}`: everything from here on is dropped; use a list, or "
                f"`[\"sh\", \"-c\", \"...\"]` for shell syntax",
                rest,
                "warning",
            )
        )

    return split_words(m, inexact, _NOTE, stop)


# -- environment ----------------------------------------------------------------------


def _environment(src: yn.Src, node: Node | None) -> dict[str, EnvVar]:
    env: dict[str, EnvVar] = {}
    if isinstance(node, SequenceNode):
        for item in node.value:
            if not isinstance(item, ScalarNode):
                continue
            w = _string(src, item)
            name, eq, value = w.text.partition("=")
            if not name:
                continue
            if eq:
                env[name] = EnvVar(name, value, src.span(item), w.exact)
            else:  # ``- NAME``: the host's value, passed through
                env[name] = EnvVar(name, None, src.span(item), False)
    elif isinstance(node, MappingNode):
        for k, v in yn.items(node):
            if not isinstance(k, ScalarNode):
                continue
            if not isinstance(v, ScalarNode) or v.tag == "tag:yaml.org,2002:null":
                env[k.value] = EnvVar(k.value, None, src.span(k), False)
                continue
            w = _string(src, v)
            env[k.value] = EnvVar(k.value, w.text, src.span(v), w.exact)
    return env
