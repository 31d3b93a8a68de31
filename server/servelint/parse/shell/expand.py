"""Expansion: what a word of the script becomes before the command sees it.

First the host form's own variable language (``k8s_expand``: Kubernetes
replaces ``$(VAR)`` before any shell starts; ``mask_github``: GitHub Actions
substitutes ``${{ ... }}``, whose value we cannot know).  Then bash's own
(``Expander``): quotes removed, ``$VAR`` and ``${VAR:-default}`` replaced
from the scope, unquoted values split into words, every character mapped
to the document.

A value we cannot know (a command's output, a loop variable, a script
argument) keeps its written text and makes the word inexact, with a note
that says why; rules must not reason about such words.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Callable, Sequence

from tree_sitter import Node

from ...structs import dataclass
from ...model import EnvVar, Word
from ...text import Span
from ..words import MStr, make_word, mstr_of
from .scope import Scope, Var, from_environment
from .source import ScriptText


# -- form-level expansion before the shell -----------------------------------


_K8S_REF = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


def k8s_expand(
    text: str, offsets: Sequence[int] | None, base: int, env: dict[str, EnvVar]
) -> tuple[str, list[int]]:
    """Kubernetes dependent variables: ``$(VAR)`` from ``env``, ``$$`` → ``$``."""
    doc = list(offsets) if offsets is not None else list(range(base, base + len(text) + 1))
    out: list[str] = []
    outoff: list[int] = []
    pos = 0
    for m in _K8S_REF.finditer(text):
        out.append(text[pos : m.start()])
        outoff.extend(doc[pos : m.start()])
        if m.group(0) == "$$":
            out.append("$")
            outoff.append(doc[m.start()])
        else:
            var = env.get(m.group(1))
            if var is not None and var.value is not None:
                out.append(var.value)
                outoff.extend([doc[m.start()]] * len(var.value))
            else:  # unresolved references stay as written
                out.append(m.group(0))
                outoff.extend(doc[m.start() : m.end()])
        pos = m.end()
    out.append(text[pos:])
    outoff.extend(doc[pos:])
    return "".join(out), outoff


_GITHUB_EXPR = re.compile(r"\$\{\{.*?\}\}", re.S)


def mask_github(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Hide ``${{ ... }}`` from bash behind same-length filler; remember where."""
    ranges = [(m.start(), m.end()) for m in _GITHUB_EXPR.finditer(text)]
    chars = list(text)
    for a, b in ranges:
        # ``%`` cannot continue a variable name and means nothing to bash here.
        chars[a:b] = "%" * (b - a)
    return "".join(chars), ranges


# -- expanded words --------------------------------------------------------------


# An unquoted variable with such a name usually holds several arguments.
_ARGS_NAME = re.compile(r"ARGS|FLAGS|OPTS|OPTIONS|PARAMS|EXTRA", re.I)


_NOTE_SUBST = "a command's output, only known when the script runs"
_NOTE_GITHUB = "${{ ... }} is filled in by GitHub Actions before the script runs"
_NOTE_TILDE = "~ is the home directory of whoever runs the script"
_NOTE_ARGS = "the script's arguments, passed through when it runs; flags may hide there"


@dataclass(slots=True)
class _Part:
    m: MStr
    split: bool  # from an unquoted expansion: bash splits it at whitespace
    origin: MStr | None = None  # the value where it was written, if it was


class Out:
    """One argv word with what the launch needs to know about it."""

    __slots__ = ("word", "_m", "opaque", "unset")

    def __init__(self, word: Word, m: MStr | None = None, opaque: bool = False, unset=()) -> None:
        self.word = word
        self._m = m
        self.opaque = opaque
        # Variables never set, used in this word: (name, where used, index in text).
        self.unset: Sequence = unset

    @property
    def m(self) -> MStr:
        """The word's characters with their document ranges."""
        if self._m is None:
            self._m = mstr_of(self.word)
        return self._m


class Builder:
    """Collects the pieces of one shell word while it is expanded."""

    __slots__ = (
        "parts", "quoted", "exact", "notes", "unset", "opaque", "elements", "whole", "guarded", "operand",
        "assign",
    )

    def __init__(self, whole: bool = False) -> None:
        self.parts: list[_Part] = []
        self.quoted = False  # a quote was seen: the word exists even if empty
        self.exact = True
        self.notes: list[str] = []
        self.unset: list[tuple[str, Span, int]] = []
        self.opaque: str | None = None  # why the word may be any number of words
        self.elements: list[Out] | None = None  # an array spread into words
        self.whole = whole  # the word is one expansion (maybe quoted)
        self.guarded = 0  # inside ``${X:+...}``: unset variables are expected
        # Inside the operand of an unquoted ``${X:-...}``: its spaces split words.
        self.operand = 0
        # Building a variable's value: keep where each character was written.
        self.assign = False

    def add(self, m: MStr, split: bool = False, origin: MStr | None = None) -> None:
        if m.text or origin is not None:
            self.parts.append(_Part(m, split, origin))

    def inexact(self, note: str) -> None:
        self.exact = False
        if note not in self.notes:
            self.notes.append(note)

    def length(self) -> int:
        return sum(len(p.m) for p in self.parts)

    def joined(self) -> MStr:
        if len(self.parts) == 1:
            return self.parts[0].m
        text = "".join(p.m.text for p in self.parts)
        starts: list[int] = []
        ends: list[int] = []
        for p in self.parts:
            starts.extend(p.m.starts)
            ends.extend(p.m.ends)
        return MStr(text, starts, ends)


class Expander:
    """Expands the word nodes of one script: ``words`` (one node), ``argv``
    (a command's), ``add`` (a node's pieces into a ``Builder``).

    ``subshell(node)`` walks the statements of a command substitution met
    inside a word (a ``$(...)`` can set nothing outside itself, but it can
    launch vLLM)."""

    def __init__(self, text: ScriptText, scope: Scope, subshell: Callable[[Node], None]) -> None:
        self.text = text
        self.scope = scope
        self.subshell = subshell

    def words(self, node: Node) -> list[Out]:
        """The argv words one shell word node expands to (zero, one or several)."""
        fast = self.plain_word(node)
        if fast is not None:
            return [Out(fast)]
        b = Builder(whole=_is_whole_expansion(node))
        self.add(node, b, quoted=False)
        return self._finish_word(b, node)

    def argv(self, nodes: list[Node]) -> tuple[list[Word], dict[int, Out]]:
        """The argv of a command's word nodes, and by id the words ``_adopt``
        must look at again (opaque, or using unset variables).

        The per-command path of every script: most words are plain, and
        need no ``Out`` around them."""
        words: list[Word] = []
        special: dict[int, Out] = {}
        plain = self.plain_word
        for c in nodes:
            w = plain(c)
            if w is not None:
                words.append(w)
                continue
            for out in self.words(c):
                words.append(out.word)
                if out.opaque or out.unset:
                    special[id(out.word)] = out
        return words, special

    def plain_word(self, node: Node) -> Word | None:
        """The common case without a builder: a literal word, ``"text"`` or ``'text'``.

        Most words of a script are written as they are received; reading
        them through the general path costs most of a parse.
        """
        t = node.type
        a, b = node.start_byte, node.end_byte
        if t in ("word", "number"):
            ia, ib = a, b
        elif t == "raw_string":
            ia, ib = a + 1, b - 1
        elif t == "string":
            kids = node.children
            if len(kids) == 2:
                ia = ib = a + 1
            elif len(kids) == 3 and kids[1].type == "string_content":
                ia, ib = kids[1].start_byte, kids[1].end_byte
            else:
                return None
            if ia != a + 1 or ib != b - 1:
                return None
        else:
            return None
        if ib < ia:
            return None
        script = self.text
        text = script.lit[ia:ib]
        if "\\" in text or (t == "word" and text.startswith("~")) or script.unknown:
            return None
        offs = script.offs
        if offs is None:
            base = script.base
            return Word(text, Span(base + a, base + b), base + ia)
        span = Span(offs[a], max(offs[a], offs[b]))
        return Word(text, span, -1, list(offs[ia : ib + 1]))

    def _finish_word(self, b: Builder, node: Node) -> list[Out]:
        span = self.text.span(node)
        if b.opaque is not None:
            m = self.text.verbatim(node.start_byte, node.end_byte)
            return [Out(make_word(m, span, exact=False, note=b.opaque), m, opaque=True)]
        if b.elements is not None and not b.parts:
            return b.elements
        note = "; ".join(b.notes) if b.notes else None
        parts = b.parts
        if not any(p.split and _has_space(p.m.text) for p in parts):
            m = b.joined()
            if not m.text and not b.quoted and not b.unset:
                return []  # an unquoted empty expansion is no word at all
            return [Out(make_word(m, span, exact=b.exact, note=note), m, unset=list(b.unset))]
        return self._split(b, note)

    def _split(self, b: Builder, note: str | None) -> list[Out]:
        """Word splitting of unquoted values (``$FLAGS`` holding ``--a 1 --b``)."""
        if len(b.parts) == 1 and b.parts[0].origin is not None and b.parts[0].origin.monotonic():
            m = b.parts[0].origin  # a value written in one place: point at it
            sep = [ch in " \t\n" for ch in m.text]
        else:
            m = b.joined()
            sep = []
            for p in b.parts:
                sep.extend((p.split and ch in " \t\n") for ch in p.m.text)
        outs: list[Out] = []
        k, n = 0, len(m.text)
        while k < n:
            if sep[k]:
                k += 1
                continue
            j = k
            while j < n and not sep[j]:
                j += 1
            piece = m.slice(k, j)
            unset = [(nm, sp, ix - k) for nm, sp, ix in b.unset if k <= ix < j]
            outs.append(Out(make_word(piece, None, exact=b.exact, note=note), piece, unset=unset))
            k = j
        return outs

    def add(self, node: Node, b: Builder, quoted: bool) -> None:
        t = node.type
        if t in ("word", "number", "extglob_pattern", "regex"):
            a = node.start_byte
            if not quoted and self.text.lit.startswith("~", a) and b.length() == 0:
                b.inexact(_NOTE_TILDE)
            b.add(self.literal(a, node.end_byte, "word", b), split=b.operand > 0 and not quoted)
        elif t == "string":
            b.quoted = True
            self._add_string(node, b)
        elif t == "raw_string":
            b.quoted = True
            b.add(self.literal(node.start_byte + 1, node.end_byte - 1, "raw", b))
        elif t == "ansi_c_string":
            b.quoted = True
            b.add(self._ansi_c(node.start_byte + 2, node.end_byte - 1))
        elif t == "concatenation":
            self._add_children(node, b, quoted, "word")
        elif t in ("simple_expansion", "expansion"):
            self._add_expansion(node, b, quoted)
        elif t == "command_substitution":
            self.subshell(node)
            self._add_unknown(node, b, _NOTE_SUBST)
        elif t == "arithmetic_expansion":
            value = self._arith(node)
            if value is None:
                self._add_unknown(node, b, "an arithmetic result only known when the script runs")
            else:
                b.add(MStr.at(value, self.text.span(node)))
        elif t == "process_substitution":
            self._add_unknown(node, b, "a file made when the script runs")
        elif t == "brace_expression":
            self._add_unknown(node, b, "a brace expansion (several words)")
        elif t == "command_name":
            for c in node.named_children:
                self.add(c, b, quoted)
        else:
            b.add(self.literal(node.start_byte, node.end_byte, "word", b))

    def _add_children(self, node: Node, b: Builder, quoted: bool, gap_mode: str) -> None:
        """Children in order; text between them is literal in ``gap_mode``."""
        pos = node.start_byte
        for c in node.children:
            ca = c.start_byte
            if ca > pos:
                b.add(self.literal(pos, ca, gap_mode, b), split=b.operand > 0 and not quoted)
            self.add(c, b, quoted)
            pos = max(pos, c.end_byte)
        end = node.end_byte
        if end > pos:
            b.add(self.literal(pos, end, gap_mode, b), split=b.operand > 0 and not quoted)

    def _add_string(self, node: Node, b: Builder) -> None:
        kids = node.children
        a, end = node.start_byte, node.end_byte
        if kids and kids[0].type == '"':
            a = kids[0].end_byte
        if len(kids) > 1 and kids[-1].type == '"':
            end = kids[-1].start_byte
        pos = a
        for c in kids:
            if c.type == '"' and not c.is_named:
                continue
            ca = c.start_byte
            if ca > pos:
                b.add(self.literal(pos, ca, "dq", b))
            if c.type == "string_content":
                b.add(self.literal(ca, c.end_byte, "dq", b))
            else:
                self.add(c, b, quoted=True)
            pos = max(pos, c.end_byte)
        if end > pos:
            b.add(self.literal(pos, end, "dq", b))

    def literal(self, a: int, b: int, mode: str, builder: Builder | None = None) -> MStr:
        """Source text ``[a, b)`` as bash reads it in ``mode`` (word/dq/raw)."""
        if self.text.unknown and builder is not None:
            for ua, ub in self.text.unknown:
                if ua < b and a < ub:
                    builder.inexact(_NOTE_GITHUB)
        text = self.text.lit[a:b]
        if mode == "raw" or "\\" not in text:
            return self.text.verbatim(a, b)
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        k = a
        while k < b:
            ch = self.text.lit[k]
            if ch == "\\" and k + 1 < b:
                nxt = self.text.lit[k + 1]
                if nxt == "\n":  # a line continuation disappears
                    k += 2
                    continue
                if mode == "word" or nxt in '$`"\\':
                    chars.append(nxt)
                    starts.append(self.text.doc(k))
                    ends.append(self.text.doc(k + 2))
                    k += 2
                    continue
            chars.append(ch)
            starts.append(self.text.doc(k))
            ends.append(self.text.doc(k + 1))
            k += 1
        return MStr("".join(chars), starts, ends)

    def _ansi_c(self, a: int, b: int) -> MStr:
        """``$'...'``: C escapes."""
        simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a",
                  "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v", "?": "?"}
        chars, starts, ends = [], [], []
        k = a
        while k < b:
            ch = self.text.lit[k]
            if ch == "\\" and k + 1 < b:
                nxt = self.text.lit[k + 1]
                if nxt in simple:
                    chars.append(simple[nxt])
                    starts.append(self.text.doc(k))
                    ends.append(self.text.doc(k + 2))
                    k += 2
                    continue
                m = re.match(r"x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|([0-7]{1,3})", self.text.lit[k + 1 : b])
                if m:
                    chars.append(chr(int(m.group(1) or m.group(2) or m.group(3), 8 if m.group(3) else 16)))
                    starts.append(self.text.doc(k))
                    ends.append(self.text.doc(k + 1 + m.end()))
                    k += 1 + m.end()
                    continue
            chars.append(ch)
            starts.append(self.text.doc(k))
            ends.append(self.text.doc(k + 1))
            k += 1
        return MStr("".join(chars), starts, ends)

    def _add_unknown(self, node: Node, b: Builder, note: str, unset: str | None = None) -> None:
        """A value not known from the file: keep what was written, mark the word."""
        if unset is not None:
            b.unset.append((unset, self.text.span(node), b.length()))
        b.inexact(note)
        b.add(self.text.verbatim(node.start_byte, node.end_byte))

    # -- parameter expansion -------------------------------------------------------

    def _add_expansion(self, node: Node, b: Builder, quoted: bool) -> None:
        kids = node.children
        prefix = ""
        name_node: Node | None = None
        op = ""
        operand: list[Node] = []
        if node.type == "simple_expansion":
            name_node = kids[1] if len(kids) > 1 else None
        else:
            k = 1
            if k < len(kids) and not kids[k].is_named and kids[k].type in ("#", "!"):
                prefix = kids[k].type
                k += 1
            if k < len(kids) and kids[k].type in ("variable_name", "special_variable_name", "subscript"):
                name_node = kids[k]
                k += 1
            if k < len(kids) and not kids[k].is_named and kids[k].type != "}":
                op = kids[k].type
                k += 1
            operand = [c for c in kids[k:] if c.type != "}"]
        if name_node is None:
            self._add_unknown(node, b, "an expansion servelint does not read")
            return
        name, index = self._name_and_index(name_node)
        span = self.text.span(node)

        if name in ("@", "*"):
            if b.whole:
                b.opaque = _NOTE_ARGS
            self._add_unknown(node, b, _NOTE_ARGS)
            return
        state, value, array, why = self.scope.lookup(name)
        if index is not None:
            state, value, why = self._index(name, state, array, index, b, span, op, prefix)
            if state == "done":
                return
        if prefix == "#":
            if state == "known":
                b.add(MStr.at(str(len(value.text)), span))
            else:
                self._add_unknown(node, b, why or f"the length of ${name}")
            return
        if prefix == "!":
            self._add_unknown(node, b, f"${{!{name}}} is an indirect reference")
            return
        if op in (":-", "-", ":=", "="):
            empty = state == "known" and value.text == ""
            if state != "known" or (empty and op.startswith(":")):
                start = b.length()
                self._add_operand(operand, b, quoted)
                if op in (":=", "=") and state != "known":
                    dflt = b.joined().slice(start)
                    self.scope.set(name, Var(value=dflt), span)
                return
        elif op in (":+", "+"):
            present = state == "known" and (value.text != "" or op == "+")
            if state == "known" and not present:
                return
            if state != "known":
                b.inexact(f"present only when ${name} is set")
            b.guarded += 1
            self._add_operand(operand, b, quoted)
            b.guarded -= 1
            return
        elif op in (":?", "?"):
            if state != "known":
                # The shell stops here when it is unset (or empty, with ``:``).
                self.scope.guard(name, span)
                self._add_unknown(node, b, f"${name} must be set by whoever runs the script")
                if state == "unset":
                    b.unset.append((name, span, b.length()))
                return
        elif op:
            if state == "known":
                result = _transform(value.text, op, [self.text.of(c) for c in operand])
                if result is not None:
                    self._add_value(b, MStr.at(result, span), None, quoted)
                    return
            if state == "unset":
                self._unset_use(node, b, name, quoted)
            else:
                self._add_unknown(node, b, why or f"${{{name}{op}...}} is computed when the script runs")
            return
        if state == "known":
            self._add_value(b, MStr.at(value.text, span), value, quoted)
        elif state == "unset":
            self._unset_use(node, b, name, quoted)
        else:
            if not quoted and b.whole and _ARGS_NAME.search(name):
                b.opaque = why or f"${name} may hold several arguments"
            self._add_unknown(node, b, why or f"${name} is only known when the script runs")

    def _add_operand(self, operand: list[Node], b: Builder, quoted: bool) -> None:
        """The words of ``${X:-a b}`` / ``${X:+--flag "$V"}``, spaces included."""
        b.operand += 1
        try:
            pos = operand[0].start_byte if operand else 0
            for c in operand:
                ca = c.start_byte
                if ca > pos:
                    b.add(self.literal(pos, ca, "word", b), split=not quoted)
                self.add(c, b, quoted)
                pos = c.end_byte
        finally:
            b.operand -= 1

    def _add_value(self, b: Builder, at_use: MStr, origin: MStr | None, quoted: bool) -> None:
        if b.assign and origin is not None:
            # ``B="$A --x"``: B's characters still point where A's were written.
            b.add(origin)
        elif quoted:
            b.add(at_use)
        else:
            b.add(at_use, split=True, origin=origin if b.whole else None)

    def _unset_use(self, node: Node, b: Builder, name: str, quoted: bool) -> None:
        if name.isdigit():
            self._add_unknown(node, b, f"${name} is an argument given when the script runs")
        elif from_environment(name):
            self._add_unknown(node, b, f"${name} comes from the environment")
        elif self.scope.sourced:
            self._add_unknown(node, b, f"${name} is not set in this file (a sourced file may set it)")
        elif not quoted and b.whole and _ARGS_NAME.search(name):
            b.opaque = f"${name} is not set in this file; it may hold several arguments"
            self._add_unknown(node, b, b.opaque)
        else:
            # An input: whoever runs the script gives it (issue 16, item 1).
            self._add_unknown(
                node, b, f"${name} is not set in this file: an input, given by whoever runs it",
                unset=None if b.guarded else name,
            )

    def _name_and_index(self, node: Node) -> tuple[str, str | None]:
        if node.type == "subscript":
            kids = node.named_children
            name = self.text.of(kids[0]) if kids else self.text.of(node)
            idx = self.text.of(kids[1]) if len(kids) > 1 else ""
            return name, idx
        return self.text.of(node), None

    def _index(
        self, name: str, state: str, array: Var | None, index: str,
        b: Builder, span: Span, op: str, prefix: str,
    ) -> tuple[str, MStr | None, str | None]:
        """``${A[@]}``, ``${A[*]}``, ``${A[0]}``, ``${#A[@]}``."""
        items = array.items if array is not None else None
        if index in ("@", "*"):
            if prefix == "#" and items is not None:
                b.add(MStr.at(str(len(items)), span))
                return "done", None, None
            if items is None or op or prefix:
                note = f"${{{name}[@]}} is only known when the script runs"
                if b.whole:
                    b.opaque = note
                return ("unset" if state == "unset" else "unknown"), None, note
            if index == "@" and b.whole and not b.parts:
                # Each element is its own word, pointing where it was written.
                spans = array.item_spans or [m.span(span) for m in items]
                b.elements = [Out(make_word(m, sp), m) for m, sp in zip(items, spans)]
                return "done", None, None
            joined = MStr.empty()
            for k, m in enumerate(items):
                if k:
                    joined = joined + MStr.at(" ", span)
                joined = joined + m
            return "known", joined, None
        if items is not None and index.isascii() and index.isdigit():
            k = int(index)
            if k < len(items):
                return "known", items[k], None
            return "known", MStr.empty(), None
        return ("unset" if state == "unset" else "unknown"), None, f"${{{name}[{index}]}} is only known when the script runs"

    def _arith(self, node: Node) -> str | None:
        """``$(( ... ))`` over integers and variables known to hold integers."""
        text = self.text.of(node)
        expr = text[3:-2] if text.startswith("$((") and text.endswith("))") else None
        if expr is None:
            return None

        def var(m: re.Match) -> str:
            state, value, _, _ = self.scope.lookup(m.group(1) or m.group(2))
            if state != "known" or not re.fullmatch(r"\s*-?\d+\s*", value.text):
                raise ValueError(m.group(0))
            return f"({value.text.strip()})"

        try:
            expr = re.sub(r"\$\{?([A-Za-z_]\w*)\}?|\b([A-Za-z_]\w*)\b", var, expr)
            return str(_eval_int(expr))
        except (ValueError, SyntaxError, ZeroDivisionError, RecursionError):
            return None


# -- helpers ---------------------------------------------------------------------


def _has_space(text: str) -> bool:
    return " " in text or "\t" in text or "\n" in text


def _is_whole_expansion(node: Node) -> bool:
    """``$X``, ``${X[@]}`` or ``"${X[@]}"``: the word is one expansion."""
    if node.type in ("simple_expansion", "expansion"):
        return True
    if node.type == "string":
        named = node.named_children
        return len(named) == 1 and named[0].type in ("simple_expansion", "expansion") and len(node.children) == 3
    return False


def _transform(value: str, op: str, operand: list[str]) -> str | None:
    """``${X#p}``, ``${X%%p}``, ``${X/a/b}``, ``${X,,}``, ``${X:1:2}`` on a known value."""
    pattern = "".join(operand)
    if op in ("#", "##", "%", "%%"):
        if not operand and op in ("#", "%"):
            return value
        cuts = range(len(value) + 1)
        if op == "#":
            for k in cuts:
                if fnmatch.fnmatchcase(value[:k], pattern):
                    return value[k:]
        elif op == "##":
            for k in reversed(cuts):
                if fnmatch.fnmatchcase(value[:k], pattern):
                    return value[k:]
        elif op == "%":
            for k in reversed(cuts):
                if fnmatch.fnmatchcase(value[k:], pattern):
                    return value[:k]
        else:
            for k in cuts:
                if fnmatch.fnmatchcase(value[k:], pattern):
                    return value[:k]
        return value
    if op in ("^^", ",,", "^", ","):
        if op == "^^":
            return value.upper()
        if op == ",,":
            return value.lower()
        if op == "^":
            return value[:1].upper() + value[1:]
        return value[:1].lower() + value[1:]
    if op in ("/", "//") and operand and not any(ch in operand[0] for ch in "*?["):
        old = operand[0]
        new = operand[1] if len(operand) > 1 else ""
        if not old:
            return value
        return value.replace(old, new) if op == "//" else value.replace(old, new, 1)
    if op == ":" and operand:
        try:
            nums = [int(t) for t in operand if t.strip() and t != ":"]
        except ValueError:
            return None
        if not nums:
            return None
        start = nums[0]
        if len(nums) > 1:
            return value[start : start + nums[1]] if nums[1] >= 0 else value[start : nums[1]]
        return value[start:]
    return None


def _eval_int(expr: str) -> int:
    """Evaluate an integer expression with + - * / % and parentheses."""
    import ast  # only scripts with $((...)) need it; a check's start does without

    tree = ast.parse(expr.strip(), mode="eval")

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            x, y = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return x + y
            if isinstance(n.op, ast.Sub):
                return x - y
            if isinstance(n.op, ast.Mult):
                return x * y
            if isinstance(n.op, (ast.Div, ast.FloorDiv)):
                q = abs(x) // abs(y)
                return q if (x >= 0) == (y >= 0) else -q
            if isinstance(n.op, ast.Mod):
                return x - y * (abs(x) // abs(y) if (x >= 0) == (y >= 0) else -(abs(x) // abs(y)))
        raise ValueError("not an integer expression")

    return ev(tree)
