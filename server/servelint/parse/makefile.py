"""Makefiles (``Makefile``, ``GNUmakefile``, ``*.mk``): launches in recipes.

GNU make reads the whole file first, then runs a recipe line by line, each
in its own ``/bin/sh -c`` (``.ONESHELL:`` makes the whole recipe one
script).  Before the shell sees a line, make expands it:

* ``$(NAME)`` / ``${NAME}`` / ``$N`` are make variables, not the shell's;
  ``$$`` is a literal ``$`` (so ``$$MODEL`` is the shell's ``$MODEL``);
* a variable the Makefile sets (``=``, ``:=``, ``::=``, ``?=``, ``+=``,
  ``define``) is known; ``?=`` is a default the environment or ``make
  VAR=x`` may replace, read like the shell's ``${VAR:-default}``;
* a variable it never sets comes from the environment or the make command
  line: an *input*, unknown here; so is anything make computes (``$(shell
  ...)``, ``$(wildcard ...)``, ``$@``), a value set inside a conditional,
  and, after an ``include``, any variable the included file may set.

A recipe line may start with ``@`` (silent), ``-`` (ignore errors) or ``+``
after its tab; a ``\\`` at the end of a recipe line continues it (make
hands the backslash-newline to the shell and drops the next line's tab).
Exported make variables (``export``, ``.EXPORT_ALL_VARIABLES:``) are in the
shell's environment.

Each recipe line, once expanded, is read by the shell parser with every
character mapped to the Makefile.  An unknown make reference is shown to the
shell as an unknown variable of the same length (``$(MODEL)`` as
``${MODEL}``) and the words made from it are marked inexact with make's
reason, keeping their text as written.
"""

from __future__ import annotations

import re

from ..structs import dataclass, field
from ..model import EnvVar, Form, Input, Launch, ParsedDocument, ParseProblem, Word
from ..text import Span
from .entry import config_refs
from .words import MStr

_ASSIGN = re.compile(
    r"(?P<mods>(?:(?:export|override|private|unexport)\s+)*)"
    r"(?P<name>[^\s:#=?+!$]+|\$[({][^)}]*[)}][^\s:#=?+!]*)\s*"
    r"(?P<op>::=|:::=|:=|\?=|\+=|!=|=)"
)
_CONDITIONAL = re.compile(r"(ifeq|ifneq|ifdef|ifndef|else|endif)\b")
_INCLUDE = re.compile(r"(?:-|s)?include\s")
_DEFINE = re.compile(r"(?:(?:export|override|private)\s+)*define\s+(?P<name>[^\s=:?+!]+)\s*(?P<op>::=|:::=|:=|\?=|\+=|!=|=)?")
_FUNCTIONS = frozenset(
    """shell wildcard subst patsubst strip findstring filter filter-out sort word words
    wordlist firstword lastword dir notdir suffix basename addsuffix addprefix join
    realpath abspath if or and foreach call value eval origin flavor error warning
    info file let intcmp guile""".split()
)
# Variables make itself sets.
_MAKE_SET = frozenset({"CURDIR", "MAKE", "MAKEFLAGS", "MAKECMDGOALS", "MAKEFILE_LIST", "MAKELEVEL",
                       "SHELL", ".DEFAULT_GOAL", "MAKE_VERSION", ".VARIABLES", "MFLAGS"})
_MAX_DEPTH = 20


@dataclass(slots=True)
class _Var:
    raw: MStr | None  # the value as written (recursive) or expanded (simple); None: unknown
    simple: bool = False  # ``:=``: already expanded
    default: bool = False  # ``?=``
    exported: bool = False
    span: Span | None = None
    note: str | None = None  # why the value is unknown


@dataclass(slots=True)
class _Recipe:
    targets: list[str]
    lines: list[MStr] = field(default_factory=list)  # logical lines, prefixes stripped


@dataclass(slots=True)
class _Known:
    """A known reference's value in the recipe: shown to the shell at the
    reference, its words mapped back to where the value is written."""

    span: Span  # the reference, where the shell sees the value
    value: MStr  # the value, characters where they are written (when they are)


@dataclass(slots=True)
class _Unknown:
    span: Span  # where the reference is written
    note: str
    one_to_one: bool  # its placeholder maps character for character onto it
    input: str | None = None  # the variable's name when it is an input (never set here)


def parse_makefile_document(path: str, text: str) -> ParsedDocument:
    """A Makefile → the vLLM launches of its recipes.  Never raises."""
    doc = ParsedDocument(path=path, form=Form.MAKEFILE)
    try:
        reader = _Reader(text)
        reader.read()
        for recipe in reader.recipes:
            for script in reader.scripts(recipe):
                doc.launches.extend(reader.launches(script, recipe))
        doc.problems.extend(reader.problems)
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        import os

        if os.environ.get("SERVELINT_STRICT"):
            raise
    doc.launches.sort(key=lambda l: (l.span.start, l.span.end))
    doc.config_refs = [(launch, w) for launch in doc.launches for w in config_refs(launch)]
    return doc


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.vars: dict[str, _Var] = {}
        self.recipes: list[_Recipe] = []
        # ``target: VAR = value``, by target (any rule line may set them).
        self.target_vars: dict[str, dict[str, _Var]] = {}
        self.problems: list[ParseProblem] = []
        self.oneshell = False
        self.export_all = False
        self.included = False  # an include may set any variable
        self.prefix = "\t"

    # -- reading the file ------------------------------------------------------------

    def read(self) -> None:
        lines = _physical_lines(self.text)
        recipe: _Recipe | None = None
        conds: list[tuple[str, str]] = []  # (directive, the name an ifndef tests)
        i = 0
        while i < len(lines):
            start, body = lines[i]
            if recipe is not None and body.startswith(self.prefix):
                # A recipe line, with its continuations (kept for the shell).
                piece, i = self._recipe_line(lines, i)
                recipe.lines.append(piece)
                continue
            logical, i = self._logical(lines, i)
            stripped = logical.text.strip()
            if not stripped or stripped.startswith("#"):
                continue  # blank and comment lines do not end a recipe
            m = _CONDITIONAL.match(stripped)
            if m:
                word = m.group(1)
                if word.startswith("if"):
                    tested = stripped[len(word):].strip() if word == "ifndef" else ""
                    conds.append((word, tested))
                elif word == "endif" and conds:
                    conds.pop()
                elif word == "else" and conds:
                    conds[-1] = ("else", "")
                continue
            recipe = None
            lead = len(logical.text) - len(logical.text.lstrip())
            logical = logical.slice(lead)
            if _INCLUDE.match(logical.text):
                self.included = True
                continue
            d = _DEFINE.match(logical.text)
            if d:
                i = self._define(lines, i, logical, d, conds)
                continue
            if self._directive(logical.text):
                continue
            a = _ASSIGN.match(logical.text)
            colon = _rule_colon(logical.text)
            if a and (colon < 0 or colon > a.start("op")):
                self._assign(logical, a, conds, self.vars)
                continue
            if colon >= 0:
                recipe = self._rule(logical, colon, conds)
                continue
            if logical.text.startswith(("export ", "unexport ")):
                self._export(logical.text)

    def _directive(self, text: str) -> bool:
        t = text.strip()
        if t.startswith(".ONESHELL"):
            self.oneshell = True
            return True
        if t.startswith(".EXPORT_ALL_VARIABLES"):
            self.export_all = True
            return True
        m = re.match(r"\.RECIPEPREFIX\s*:?=\s*(\S)?", t)
        if m:
            self.prefix = m.group(1) or "\t"
            return True
        return False

    def _logical(self, lines: list[tuple[int, str]], i: int) -> tuple[MStr, int]:
        """A non-recipe line with its ``\\`` continuations: each backslash-newline
        and the whitespace around it become one space (as make does)."""
        start, body = lines[i]
        out = MStr.verbatim(_without_comment(body), start)
        while body.endswith("\\") and not body.endswith("\\\\") and i + 1 < len(lines):
            out = out.slice(0, len(out.text) - 1)
            out = out.slice(0, len(out.text.rstrip()))
            i += 1
            start, body = lines[i]
            lead = len(body) - len(body.lstrip())
            out = out + MStr(" ", [start], [start + lead]) + MStr.verbatim(_without_comment(body)[lead:], start + lead)
            if not body.endswith("\\"):
                break
        return out, i + 1

    def _recipe_line(self, lines: list[tuple[int, str]], i: int) -> tuple[MStr, int]:
        """A recipe line: its tab and ``@``/``-``/``+`` prefixes dropped; each
        continuation's leading tab dropped, the backslash-newline kept."""
        start, body = lines[i]
        k = len(self.prefix)
        while k < len(body) and body[k] in "@-+ \t":
            k += 1
        out = MStr.verbatim(body[k:], start + k)
        while body.endswith("\\") and i + 1 < len(lines):
            nl = start + len(body)
            i += 1
            start, body = lines[i]
            out = out + MStr("\n", [nl], [start])
            k = len(self.prefix) if body.startswith(self.prefix) else 0
            out = out + MStr.verbatim(body[k:], start + k)
        return out, i + 1

    def _define(self, lines, i: int, head: MStr, d: re.Match, conds) -> int:
        """``define NAME [op]`` ... ``endef``: a multi-line value."""
        name, op = d.group("name"), d.group("op") or "="
        body = MStr.empty()
        first = True
        while i < len(lines):
            start, line = lines[i]
            i += 1
            if line.strip() == "endef":
                break
            if not first:
                body = body + MStr("\n", [start], [start])
            body = body + MStr.verbatim(line, start)
            first = False
        span = head.span()
        self._set(name, op, body, span, head.text.lstrip().startswith("export"), conds, self.vars)
        return i

    def _assign(self, line: MStr, a: re.Match, conds, table: dict[str, _Var]) -> None:
        name = a.group("name")
        op = a.group("op")
        vstart = a.end()
        while vstart < len(line.text) and line.text[vstart] in " \t":
            vstart += 1
        value = line.slice(vstart)
        value = value.slice(0, len(value.text.rstrip()))
        mods = a.group("mods").split()
        self._set(name, op, value, line.span(), "export" in mods, conds, table)
        if "unexport" in mods and name in table:
            table[name].exported = False

    def _set(self, name: str, op: str, value: MStr, span: Span, export: bool, conds, table) -> None:
        if "$" in name:
            return  # a computed name: any variable may change
        old = table.get(name)
        if conds and not (op == "?=" or (conds[-1] == ("ifndef", name))):
            # Which branch make takes is not known here.
            table[name] = _Var(None, span=span, exported=export or (old is not None and old.exported),
                               note=f"$({name}) is set inside a make conditional")
            return
        if conds and conds[-1] == ("ifndef", name):
            op = "?="  # ``ifndef X`` / ``X = default`` / ``endif``
        if op == "?=":
            if old is not None:
                if export:
                    old.exported = True
                return
            table[name] = _Var(value, default=True, exported=export, span=span)
        elif op == "+=":
            if old is None:
                table[name] = _Var(value, exported=export, span=span)
            elif old.raw is None:
                old.span = span
            else:
                add = self._expand(value, table, 0)[0] if old.simple else value
                joined = old.raw + MStr(" ", [span.start], [span.start]) + add if old.raw.text else add
                table[name] = _Var(joined, simple=old.simple, default=old.default,
                                   exported=old.exported or export, span=span)
        elif op == "!=":
            table[name] = _Var(None, exported=export, span=span, note=f"$({name}) is the output of a shell command")
        elif op in (":=", "::=", ":::="):
            expanded, _ = self._expand(value, table, 0)
            table[name] = _Var(expanded, simple=True, exported=export, span=span)
        else:
            table[name] = _Var(value, exported=export or (old is not None and old.exported), span=span)

    def _export(self, text: str) -> None:
        words = text.split()
        on = words[0] == "export"
        for name in words[1:]:
            var = self.vars.get(name)
            if var is None:
                if on:
                    self.vars[name] = _Var(None, exported=True,
                                           note=f"$({name}) is not set in this Makefile (an input)")
            else:
                var.exported = on

    def _rule(self, line: MStr, colon: int, conds) -> _Recipe:
        targets = line.text[:colon].split()
        rest = line.slice(colon + (2 if line.text[colon : colon + 2] == "::" else 1))
        recipe = _Recipe(targets)
        self.recipes.append(recipe)
        semi = _unquoted_semicolon(rest.text)
        prereqs = rest if semi < 0 else rest.slice(0, semi)
        a = _ASSIGN.match(prereqs.text.lstrip())
        if a:  # ``target: VAR = value``: a target-specific variable
            lead = len(prereqs.text) - len(prereqs.text.lstrip())
            for target in targets:
                table = self.target_vars.setdefault(target, {})
                name = a.group("name")
                if name in self.vars and name not in table:
                    table[name] = self.vars[name]  # ``+=`` and ``?=`` see the global value
                self._assign(prereqs.slice(lead), a, conds, table)
            return recipe
        if semi >= 0:
            inline = rest.slice(semi + 1)
            lead = len(inline.text) - len(inline.text.lstrip())
            recipe.lines.append(inline.slice(lead))
        return recipe

    # -- recipes → scripts ------------------------------------------------------------

    def scripts(self, recipe: _Recipe) -> list[MStr]:
        if not recipe.lines:
            return []
        if not self.oneshell:
            return list(recipe.lines)
        joined = recipe.lines[0]
        for line in recipe.lines[1:]:
            at = joined.ends[-1] if joined.ends else line.span().start
            joined = joined + MStr("\n", [at], [line.span().start]) + line
        return [joined]

    def launches(self, script: MStr, recipe: _Recipe) -> list[Launch]:
        if "vllm" not in script.text.lower() and "$" not in script.text:
            return []
        table = dict(self.vars)
        for target in recipe.targets:
            table.update(self.target_vars.get(target, {}))
        unknown: list[_Unknown] = []
        known: list[_Known] = []
        shell_text, inputs = self._for_shell(script, table, unknown, known)
        if "vllm" not in shell_text.text.lower() and not unknown:
            return []
        from .shell import parse_shell  # the shell parser imports the entry finder

        env = self._environment(table)
        placeholders = {name for name in inputs if name not in env}
        for name in placeholders:
            env[name] = EnvVar(name, None, None, False)
        result = parse_shell(shell_text.text, offsets=shell_text.offsets() or [script.span().start],
                             form=Form.MAKEFILE, env=env)
        self.problems.extend(result.problems)
        for launch in result.launches:
            if placeholders:
                # Stand-ins for make's unknown references, not the environment.
                launch.env = {k: v for k, v in launch.env.items() if k not in placeholders}
            _mark(launch, unknown, self.text)
            _to_definitions(launch, known)
        return result.launches

    def _environment(self, table: dict[str, _Var]) -> dict[str, EnvVar]:
        env: dict[str, EnvVar] = {}
        for name, var in table.items():
            if not (var.exported or self.export_all) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                continue
            value = None
            if var.raw is not None:
                m, exact = self._expand(var.raw, table, 0) if not var.simple else (var.raw, True)
                value = m.text if exact else None
            env[name] = EnvVar(name, value, var.span, value is not None)
        return env

    # -- expansion ----------------------------------------------------------------------

    def _for_shell(self, script: MStr, table: dict[str, _Var], unknown: list[_Unknown],
                   known: list[_Known]) -> tuple[MStr, set[str]]:
        """The recipe text the shell runs, with unknown references replaced
        by unknown shell variables; the names of those variables."""
        names: set[str] = set()
        out, _ = self._expand(script, table, 0, unknown, names, known)
        return out, names

    def _expand(self, m: MStr, table: dict[str, _Var], depth: int,
                unknown: list[_Unknown] | None = None, names: set[str] | None = None,
                known: list[_Known] | None = None) -> tuple[MStr, bool]:
        """``m`` with make's references replaced; whether all were known.

        With ``unknown``, an unknown reference becomes a same-length shell
        variable (recorded there); without, its text is kept as written."""
        text = m.text
        if "$" not in text:
            return m, True
        out = MStr.empty()
        exact = True
        i = last = 0
        n = len(text)
        while i < n:
            if text[i] != "$" or i + 1 >= n:
                i += 1
                continue
            out = out + m.slice(last, i)
            c = text[i + 1]
            if c == "$":
                out = out + MStr("$", [m.starts[i]], [m.ends[i + 1]])
                i = last = i + 2
                continue
            if c in "({":
                close = _closing(text, i + 1)
                if close < 0:
                    out = out + m.slice(i)
                    i = last = n
                    break
                ref, body = m.slice(i, close + 1), text[i + 2 : close]
                end = close + 1
            else:
                ref, body = m.slice(i, i + 2), c
                end = i + 2
            got, why = self._reference(body, table, depth, unknown, names)
            if got is not None:
                out = out + MStr.at(got.text, ref.span())
                if known is not None:
                    known.append(_Known(ref.span(), got))
            else:
                exact = False
                out = out + self._placeholder(ref, body, why, unknown, names)
            i = last = end
        out = out + m.slice(last)
        return out, exact

    def _reference(self, body: str, table: dict[str, _Var], depth: int,
                   unknown: list[_Unknown] | None, names: set[str] | None) -> tuple[MStr | None, str]:
        """The value of ``$(body)``, or None and why it is unknown."""
        head = body.split(None, 1)[0] if body.strip() else ""
        if head in _FUNCTIONS and (body[len(head) : len(head) + 1] in (" ", "\t")):
            return None, f"$({head} ...) is computed by make"
        if "$" in body:
            return None, f"$({body}) is a computed make reference"
        if ":" in body and "=" in body:
            return None, f"$({body}) is a substitution make computes"
        name = body
        if name in ("@", "<", "^", "+", "?", "*", "%", "|") or (len(name) == 2 and name[0] in "@<^+?*%" and name[1] in "DF"):
            return None, f"${name if len(name) == 1 else '(' + name + ')'} is set by make for each target"
        var = table.get(name)
        if var is None:
            if name in _MAKE_SET:
                return None, f"$({name}) is set by make"
            if self.included:
                return None, f"$({name}) is not set in this Makefile (an included file may set it)"
            return None, _input_note(name)
        if var.raw is None:
            return None, var.note or f"$({name}) is only known when make runs"
        if var.simple:
            return var.raw, ""
        if depth >= _MAX_DEPTH:
            return None, f"$({name}) refers to itself"
        value, exact = self._expand(var.raw, table, depth + 1)
        if not exact:
            return None, f"$({name}) is made of values known only when make runs"
        return value, ""

    @staticmethod
    def _placeholder(ref: MStr, body: str, why: str, unknown: list[_Unknown] | None,
                     names: set[str] | None) -> MStr:
        span = ref.span()
        if unknown is None:
            return ref
        n = len(ref.text)
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", body) and n == len(body) + 3:
            name = body  # ``$(MODEL)`` → ``${MODEL}``: the shell's note names it
        else:
            name = "_" * max(1, n - 3)
        shell = "$_" if n == 2 else "${" + name + "}"
        if names is not None:
            names.add("_" if n == 2 else name)
        one = len(shell) == n and ref.starts == sorted(set(ref.starts)) and len(set(ref.starts)) == n
        unknown.append(_Unknown(span, why, one, body if why == _input_note(body) else None))
        if len(shell) == n:
            return MStr(shell, list(ref.starts), list(ref.ends))
        return MStr.at(shell, span)


def _input_note(name: str) -> str:
    return f"$({name}) is not set in this Makefile: an input, given on make's command line or in the environment"


def _mark(launch: Launch, unknown: list[_Unknown], text: str) -> None:
    """Words made from unknown make references: inexact, with make's reason,
    and their text as written in the Makefile; make's inputs are the
    launch's inputs."""
    if not unknown:
        return
    inputs = {i.name: i for i in launch.inputs}
    for w in launch.args + launch.opaque:
        hit = [u for u in unknown if w.span.start < u.span.end and u.span.start < w.span.end]
        if not hit:
            continue
        for u in hit:
            if u.input is not None:
                inp = inputs.get(u.input)
                if inp is None:
                    inp = inputs[u.input] = Input(u.input, [])
                    launch.inputs.append(inp)
                if u.span not in inp.uses:
                    inp.uses.append(u.span)
        w.exact = False
        w.note = hit[0].note
        chars = list(w.text)
        for k in range(len(chars)):
            at = w.at(k)
            for u in hit:
                if u.one_to_one and u.span.start <= at < u.span.end:
                    chars[k] = text[at]
        w.text = "".join(chars)
    for p in list(launch.problems):
        # The shell calls such a variable unset; to make it is an input.
        if any(p.span.start < u.span.end and u.span.start < p.span.end for u in unknown):
            launch.problems.remove(p)


def _to_definitions(launch: Launch, known: list[_Known]) -> None:
    """Words that come from a make variable holding several words point
    where its value is written (``VLLM_FLAGS = --max-model-len 8192``), so
    that a finding on one flag of it lands on that flag and a fix edits the
    definition.  The shell
    splits an unquoted value at whitespace: the k-th word inside a
    reference is the value's k-th whitespace-separated token (quotes the
    shell removed are kept out of the word's characters)."""
    for k in known:
        inside = [(i, w) for i, w in enumerate(launch.args) if k.span.start <= w.span.start and w.span.end <= k.span.end]
        if not inside:
            continue
        tokens = [(t.start(), t.end()) for t in re.finditer(r"\S+", k.value.text)]
        if len(tokens) != len(inside) or len(tokens) < 2:
            # One word stays at the reference (``$(MODEL)``): an edit of the
            # launch (moving ``--model $(MODEL)``) must not reach into the
            # definition, which other recipes use too.
            continue
        for (i, w), (a, b) in zip(inside, tokens):
            token = k.value.text[a:b]
            if token != w.text:
                if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'" and token[1:-1] == w.text:
                    a, b = a + 1, b - 1
                    outer = (a - 1, b + 1)
                else:
                    continue
            else:
                outer = (a, b)
            starts = k.value.starts[a:b]
            if len(set(starts)) != len(starts) or starts != sorted(starts):
                continue  # not written as one run (itself built from variables)
            offsets = list(starts) + [k.value.ends[b - 1]]
            span = Span(k.value.starts[outer[0]], k.value.ends[outer[1] - 1])
            launch.args[i] = Word(w.text, span, -1, offsets, w.exact, w.note, w.role)


# -- lines -------------------------------------------------------------------------------


def _physical_lines(text: str) -> list[tuple[int, str]]:
    out = []
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        out.append((pos, body))
        pos += len(line)
    return out


def _without_comment(line: str) -> str:
    """A make line without its ``#`` comment (``\\#`` is a literal ``#``)."""
    k = 0
    while True:
        k = line.find("#", k)
        if k < 0:
            return line
        if k > 0 and line[k - 1] == "\\":
            k += 1
            continue
        return line[:k]


def _rule_colon(text: str) -> int:
    """Where a rule line's target list ends (its ``:``), or -1."""
    depth = 0
    for k, c in enumerate(text):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth = max(0, depth - 1)
        elif c == ":" and depth == 0:
            if text[k + 1 : k + 2] == "=":
                return -1
            return k
        elif c in "=" and depth == 0:
            return -1
    return -1


def _unquoted_semicolon(text: str) -> int:
    depth = 0
    for k, c in enumerate(text):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth = max(0, depth - 1)
        elif c == ";" and depth == 0:
            return k
    return -1


def _closing(text: str, k: int) -> int:
    """The index of the bracket closing ``text[k]`` (``(`` or ``{``)."""
    open_, close = text[k], ")" if text[k] == "(" else "}"
    depth = 0
    for j in range(k, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


__all__ = ["parse_makefile_document"]
