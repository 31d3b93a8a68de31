"""Dockerfiles → the vLLM launch each build stage's image would run.

A container runs ``ENTRYPOINT`` + ``CMD``; either may come from the base
image.  The upstream ``vllm/vllm-openai`` images have ``ENTRYPOINT ["vllm",
"serve"]``, so a ``CMD`` on top of them holds only vLLM's arguments.

Exec form (a JSON array) is passed to the program as is: no variable
expansion, no shell.  Shell form runs under ``/bin/sh -c`` with the ``ENV``
variables set (build ``ARG``s are gone by then).  Instructions may continue
over lines with the escape character (``\\`` unless a ``# escape=`` directive
says otherwise); characters keep their document offsets through all of it.
"""

from __future__ import annotations

import re

from ..structs import dataclass, field
from ..model import EnvVar, Form, Launch, ParsedDocument, ParseProblem, Word
from ..text import Span
from . import problems
from .entry import config_refs, is_vllm_openai_image
from .launches import find_launches
from .shell import parse_shell
from .words import MStr, make_word

_DIRECTIVE = re.compile(r"#\s*([A-Za-z]+)\s*=\s*(\S+)\s*$")
_HEREDOC = re.compile(r"<<-?\s*([\"']?)([A-Za-z_][A-Za-z0-9_]*)\1")
_VAR_REF = re.compile(r"\$(?:\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+-][^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)")


def parse_dockerfile_document(path: str, text: str) -> ParsedDocument:
    """A Dockerfile (or Containerfile) → its launches."""
    doc = ParsedDocument(path=path, form=Form.DOCKERFILE)
    try:
        _Reader(text, doc).run()
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        import os

        if os.environ.get("SERVELINT_STRICT"):
            raise
    doc.launches.sort(key=lambda l: (l.span.start, l.span.end))
    doc.config_refs = [(launch, w) for launch in doc.launches for w in config_refs(launch)]
    return doc


# -- instructions -----------------------------------------------------------------


@dataclass(slots=True)
class _Instruction:
    keyword: str  # upper-cased
    keyword_span: Span
    args: MStr  # the rest of the logical line, continuations removed
    span: Span  # the whole instruction


def _instructions(text: str) -> list[_Instruction]:
    """Logical instructions: continuation lines joined, comments dropped."""
    lines = text.splitlines(keepends=True)
    escape = "\\"
    # Parser directives come first, before any comment or instruction.
    for line in lines:
        m = _DIRECTIVE.match(line.strip())
        if not m:
            break
        if m.group(1).lower() == "escape" and m.group(2) in ("\\", "`"):
            escape = m.group(2)
    out: list[_Instruction] = []
    offset = 0
    pending: MStr | None = None
    start = 0
    heredoc: str | None = None
    for line in lines:
        line_start = offset
        offset += len(line)
        body = line.rstrip("\r\n")
        if heredoc is not None:  # ``RUN <<EOF`` bodies are not instructions
            if body.strip() == heredoc:
                heredoc = None
            continue
        stripped = body.strip()
        if pending is None and (not stripped or stripped.startswith("#")):
            continue
        if pending is not None and (not stripped or stripped.lstrip().startswith("#")):
            continue  # comment and empty lines inside a continuation vanish
        content = body
        cont = False
        rs = content.rstrip(" \t")
        if rs.endswith(escape):
            content = rs[:-1]
            cont = True
        piece = MStr.verbatim(content, line_start)
        if pending is None:
            pending = piece
            start = line_start
        else:
            pending = pending + piece
        if cont:
            continue
        inst = _make_instruction(pending, start, line_start + len(body))
        pending = None
        if inst is None:
            continue
        out.append(inst)
        if inst.keyword in ("RUN", "COPY", "ADD"):
            m = _HEREDOC.search(inst.args.text)
            if m:
                heredoc = m.group(2)
    if pending is not None:
        inst = _make_instruction(pending, start, len(text))
        if inst is not None:
            out.append(inst)
    return out


def _make_instruction(line: MStr, start: int, end: int) -> _Instruction | None:
    text = line.text
    k = len(text) - len(text.lstrip())
    j = k
    while j < len(text) and not text[j].isspace():
        j += 1
    if j == k:
        return None
    a = j
    while a < len(text) and text[a].isspace():
        a += 1
    keyword = text[k:j].upper()
    kw_span = Span(line.starts[k], line.ends[j - 1])
    return _Instruction(keyword, kw_span, line.slice(a), Span(start, max(start, end)))


# -- exec form ----------------------------------------------------------------------

_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _exec_form(args: MStr) -> list[Word] | None:
    """The words of a JSON array, or None when the text is not one (then
    Docker reads it as shell form)."""
    t = args.text
    n = len(t)
    k = _skip_ws(t, 0)
    if k >= n or t[k] != "[":
        return None
    k = _skip_ws(t, k + 1)
    words: list[Word] = []
    if k < n and t[k] == "]":
        return words if _skip_ws(t, k + 1) == n else None
    while True:
        if k >= n or t[k] != '"':
            return None
        parsed = _json_string(args, k)
        if parsed is None:
            return None
        m, end = parsed
        words.append(make_word(m, Span(args.starts[k], args.ends[end - 1])))
        k = _skip_ws(t, end)
        if k < n and t[k] == ",":
            k = _skip_ws(t, k + 1)
            continue
        if k < n and t[k] == "]":
            return words if _skip_ws(t, k + 1) == n else None
        return None


def _json_string(args: MStr, k: int) -> tuple[MStr, int] | None:
    """The JSON string starting at the quote ``args.text[k]``, and the index after it."""
    t = args.text
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    j = k + 1
    while j < len(t):
        ch = t[j]
        if ch == '"':
            return MStr("".join(chars), starts, ends), j + 1
        if ch == "\\":
            if j + 1 >= len(t):
                return None
            esc = t[j + 1]
            if esc in _JSON_ESCAPES:
                chars.append(_JSON_ESCAPES[esc])
                starts.append(args.starts[j])
                ends.append(args.ends[j + 1])
                j += 2
                continue
            if esc == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", t[j + 2 : j + 6]):
                chars.append(chr(int(t[j + 2 : j + 6], 16)))
                starts.append(args.starts[j])
                ends.append(args.ends[j + 5])
                j += 6
                continue
            return None
        chars.append(ch)
        starts.append(args.starts[j])
        ends.append(args.ends[j])
        j += 1
    return None


def _skip_ws(t: str, k: int) -> int:
    while k < len(t) and t[k] in " \t\r\n":
        k += 1
    return k


# -- ENV / ARG / FROM values ------------------------------------------------------------


def _words(args: MStr, variables: dict[str, str | None]) -> list[tuple[MStr, bool]]:
    """Shell-like words of an ``ENV``/``ARG``/``FROM`` line, with Docker's
    variable substitution.  Each word comes with whether its value is known."""
    t = args.text
    out: list[tuple[MStr, bool]] = []
    k = 0
    n = len(t)
    while k < n:
        while k < n and t[k] in " \t":
            k += 1
        if k >= n:
            break
        parts: list[MStr] = []
        exact = True
        quote = ""
        while k < n and (quote or t[k] not in " \t"):
            ch = t[k]
            if quote == "'" :
                if ch == "'":
                    quote = ""
                else:
                    parts.append(args.slice(k, k + 1))
                k += 1
                continue
            if ch in "'\"" and (not quote or ch == quote):
                quote = "" if quote else ch
                k += 1
                continue
            if ch == "\\" and k + 1 < n:
                parts.append(MStr(t[k + 1], [args.starts[k]], [args.ends[k + 1]]))
                k += 2
                continue
            if ch == "$":
                m = _VAR_REF.match(t, k)
                if m:
                    value, known = _substitute(m.group(0), variables)
                    span = Span(args.starts[k], args.ends[m.end() - 1])
                    parts.append(MStr.at(value, span))
                    exact = exact and known
                    k = m.end()
                    continue
            parts.append(args.slice(k, k + 1))
            k += 1
        word = MStr.empty()
        for p in parts:
            word = word + p
        out.append((word, exact))
    return out


def _substitute(ref: str, variables: dict[str, str | None]) -> tuple[str, bool]:
    """``$X``, ``${X}``, ``${X:-w}``, ``${X:+w}`` as Docker expands them."""
    body = ref[2:-1] if ref.startswith("${") else ref[1:]
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+?])(.*))?$", body, re.S)
    if not m:
        return ref, False
    name, op, word = m.group(1), m.group(2), m.group(3) or ""
    value = variables.get(name)
    known = name in variables and value is not None
    if op in (":-", "-"):
        if known and (value or op == "-"):
            return value, True
        return word, True
    if op in (":+", "+"):
        return (word, True) if known and (value or op == "+") else ("", known)
    if known:
        return value, True
    return ref, False


# -- stages and launches ----------------------------------------------------------------


@dataclass
class _Command:
    exec_words: list[Word] | None  # exec form
    shell: MStr | None  # shell form
    inst: _Instruction


@dataclass
class _Stage:
    image: str | None = None  # the base image (FROM), when not an earlier stage
    image_span: Span | None = None
    name: str | None = None
    env: dict[str, EnvVar] = field(default_factory=dict)
    args: dict[str, str | None] = field(default_factory=dict)
    entrypoint: _Command | None = None
    cmd: _Command | None = None
    own: bool = False  # this stage sets CMD or ENTRYPOINT itself


class _Reader:
    def __init__(self, text: str, doc: ParsedDocument) -> None:
        self.text = text
        self.doc = doc
        self.global_args: dict[str, str | None] = {}
        self.stages: dict[str, _Stage] = {}
        self.stage: _Stage | None = None
        self.order: list[_Stage] = []  # every stage, in order

    def run(self) -> None:
        # By table, not by name: SHELL (or any word) must not reach a helper.
        handlers = {"FROM": self._from, "ARG": self._arg, "ENV": self._env,
                    "ENTRYPOINT": self._entrypoint, "CMD": self._cmd}
        for inst in _instructions(self.text):
            handler = handlers.get(inst.keyword.upper())
            if handler is not None:
                handler(inst)
        self._finish_stage()

    # -- instructions ------------------------------------------------------------

    def _from(self, inst: _Instruction) -> None:
        self._finish_stage()
        words = [w for w, _ in _words(inst.args, self.global_args) if not w.text.startswith("--")]
        stage = _Stage()
        if words:
            image = words[0]
            parent = self.stages.get(image.text.lower())
            if parent is not None:  # ``FROM builder``: start from that stage
                stage.image, stage.image_span = parent.image, parent.image_span
                stage.env = dict(parent.env)
                stage.entrypoint, stage.cmd = parent.entrypoint, parent.cmd
            else:
                stage.image, stage.image_span = image.text, image.span()
            if len(words) >= 3 and words[1].text.lower() == "as":
                stage.name = words[2].text.lower()
        self.stage = stage

    def _arg(self, inst: _Instruction) -> None:
        target = self.stage.args if self.stage is not None else self.global_args
        variables = self._variables()
        for word, known in _words(inst.args, variables):
            name, eq, value = word.text.partition("=")
            if not eq:
                # ``ARG X`` inside a stage brings a global ARG's default in.
                target[name] = self.global_args.get(name) if self.stage is not None else None
            else:
                target[name] = value if known else None

    def _env(self, inst: _Instruction) -> None:
        if self.stage is None:
            return
        words = _words(inst.args, self._variables())
        if words and "=" not in words[0][0].text:
            # Legacy ``ENV NAME value with spaces``.
            name = words[0][0].text
            rest = words[1:]
            value = " ".join(w.text for w, _ in rest)
            known = all(k for _, k in rest)
            self.stage.env[name] = EnvVar(name, value if known else None, inst.span, known)
            return
        for word, known in words:
            name, eq, value = word.text.partition("=")
            if eq:
                self.stage.env[name] = EnvVar(name, value if known else None, word.span(), known)

    def _entrypoint(self, inst: _Instruction) -> None:
        if self.stage is None:
            return
        self.stage.entrypoint = self._command(inst)
        self.stage.cmd = None  # Docker drops a CMD inherited from the base
        self.stage.own = True

    def _cmd(self, inst: _Instruction) -> None:
        if self.stage is None:
            return
        self.stage.cmd = self._command(inst)
        self.stage.own = True

    def _command(self, inst: _Instruction) -> _Command:
        words = _exec_form(inst.args)
        if words is not None:
            return _Command(words, None, inst)
        return _Command(None, inst.args, inst)

    def _variables(self) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        if self.stage is not None:
            out.update(self.stage.args)
            out.update({k: v.value for k, v in self.stage.env.items()})
        else:
            out.update(self.global_args)
        return out

    # -- launches ------------------------------------------------------------------

    def _finish_stage(self) -> None:
        stage = self.stage
        if stage is None:
            return
        if not self.order or self.order[-1] is not stage:
            self.order.append(stage)
        if stage.name:
            self.stages[stage.name] = stage
        if stage.own:
            for launch in self._launches(stage):
                self.doc.launches.append(launch)

    def _launches(self, stage: _Stage) -> list[Launch]:
        ep, cmd = stage.entrypoint, stage.cmd
        env = dict(stage.env)
        if ep is not None and ep.shell is not None:
            return self._shell(ep, stage)  # CMD is ignored under a shell-form ENTRYPOINT
        if ep is not None:
            argv = list(ep.exec_words or [])
            tail = cmd.exec_words if cmd is not None and cmd.exec_words is not None else None
            launches = find_launches(argv + (tail or []), form=Form.DOCKERFILE, env=env, image=stage.image)
            for launch in launches:
                self._finish_exec(launch, [ep] + ([cmd] if cmd else []))
                if cmd is None:
                    launch.opaque.append(_runtime_args(ep.inst))
            return launches
        if cmd is None:
            return []
        if cmd.shell is not None:
            launches = self._shell(cmd, stage)
            if stage.image and is_vllm_openai_image(stage.image):
                for launch in launches:
                    launch.problems.append(_shell_cmd_on_entrypoint(cmd.inst))
            return launches
        words = cmd.exec_words or []
        on_image = bool(stage.image) and (
            is_vllm_openai_image(stage.image)
            or ("vllm" in stage.image.lower() and bool(words) and words[0].text.startswith("-"))
        )
        launches = find_launches(
            words,
            form=Form.DOCKERFILE,
            env=env,
            image=stage.image,
            image_entrypoint=on_image,
            image_span=stage.image_span,
        )
        for launch in launches:
            self._finish_exec(launch, [cmd])
            if on_image:
                launch.span = cmd.inst.span
        return launches

    def _finish_exec(self, launch: Launch, commands: list[_Command]) -> None:
        span = commands[0].inst.span
        for c in commands[1:]:
            span = span.cover(c.inst.span)
        launch.span = span
        launch.layout = "json-array"
        for w in launch.args:
            if _VAR_REF.search(w.text):
                launch.problems.append(
                    ParseProblem(
                        problems.FORM_VALUE,
                        "exec form (a JSON array) does not expand variables: "
                        f"vLLM receives the literal text {w.text!r}; use the shell form "
                        "or write the value",
                        w.span,
                        "warning",
                    )
                )

    def _shell(self, command: _Command, stage: _Stage) -> list[Launch]:
        script = command.shell
        assert script is not None
        result = parse_shell(
            script.text,
            offsets=script.offsets() or [command.inst.span.end],
            form=Form.DOCKERFILE,
            env=dict(stage.env),
        )
        for launch in result.launches:
            launch.image = launch.image or stage.image
            launch.layout = _layout(self.text, launch)
            for inp in launch.inputs:
                if inp.name in stage.args:
                    # The file shows it: the build sets it, the container does not.
                    launch.problems.append(ParseProblem(
                        problems.UNSET_VARIABLE,
                        f"${inp.name} is a build ARG: it is not set when the container runs "
                        "(copy it into an ENV)",
                        inp.uses[0], "warning", {"variable": inp.name},
                    ))
        self.doc.problems.extend(result.problems)
        return result.launches


def _layout(text: str, launch: Launch) -> str:
    if not launch.args:
        return "single-line"
    chunk = text[launch.entry_span.start : launch.args[-1].span.end]
    return "multiline-backslash" if "\\\n" in chunk or "\\\r\n" in chunk else "single-line"


def _runtime_args(inst: _Instruction) -> Word:
    """Stands for the arguments a container gets when it starts."""
    end = inst.span.end
    return Word(
        "",
        Span(end, end),
        exact=False,
        note="arguments given when the container starts (docker run IMAGE ARGS, Kubernetes args:)",
    )


def _shell_cmd_on_entrypoint(inst: _Instruction) -> ParseProblem:
    return ParseProblem(
        problems.FORM_VALUE,
        "a shell-form CMD is passed to the image's entrypoint (`vllm serve`) as "
        "`/bin/sh -c '...'`; write CMD as a JSON array of vLLM's arguments",
        inst.keyword_span,
        "error",
    )


@dataclass(slots=True)
class BuiltStage:
    """What an image built by a Dockerfile runs, as far as the file shows it."""

    image: str | None  # the base image (``FROM``), through earlier stages
    # The stage's ENTRYPOINT (its own or an earlier stage's): exec-form
    # words with spans in the Dockerfile, or None when the file sets none
    # (the base image's entrypoint applies).
    entrypoint: list[Word] | None
    entrypoint_shell: bool = False  # a shell-form ENTRYPOINT (ignores CMD and args)


def built_stage(text: str, target: str | None = None) -> BuiltStage | None:
    """The stage ``docker build`` makes of ``text`` (``target``, else the last)."""
    reader = _Reader(text, ParsedDocument(path="", form=Form.DOCKERFILE))
    try:
        reader.run()
    except Exception:  # noqa: BLE001 - a Dockerfile we cannot read shows nothing
        return None
    stages = reader.order
    if target is not None:
        stages = [st for st in stages if st.name == target.lower()]
    if not stages:
        return None
    stage = stages[-1]
    ep = stage.entrypoint
    if ep is None:
        return BuiltStage(stage.image, None)
    if ep.exec_words is None:
        return BuiltStage(stage.image, [], entrypoint_shell=True)
    return BuiltStage(stage.image, list(ep.exec_words))


__all__ = ["parse_dockerfile_document", "built_stage", "BuiltStage"]
