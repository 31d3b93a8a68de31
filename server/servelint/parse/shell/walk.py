"""The statement walk: a script's statements top-down, the commands that
launch vLLM among them.

Statements are walked in order with one scope (``scope``): assignments,
``export``, ``local``, ``set -a``, functions (their bodies read at their
first call), subshells, conditional code.  Each command that could launch
vLLM has its argv expanded (``expand``) and handed to ``entry.find_launches``,
which decides whether it launches vLLM; scripts inside it (``bash -c``,
``eval``, heredocs fed to a shell) are parsed again with their characters
still mapped to the document.
"""

from __future__ import annotations

import os
import re
import weakref
from typing import Callable, NamedTuple, Sequence

from tree_sitter import Node

from ...structs import dataclass, field, replace
from ...model import Env, EnvVar, Form, Input, Launch, ParseProblem, Word
from ...text import Span
from .. import problems, templates
from ..entry import config_refs, could_start_launch, find_launches
from ..words import MStr, basename, cover
from ..written import WrittenFile, config_of
from ..written import key as written_key
from .errors import attach_errors
from .expand import Builder, Expander, Out, k8s_expand, mask_github
from .grammar import ascii_only, parse_range, parse_tree
from .scope import Journal, Scope, Snapshot, Var, appended
from .source import ScriptText


@dataclass
class ShellResult:
    """What ``parse_shell`` found in one script."""

    launches: list[Launch] = field(default_factory=list)
    # Problems not tied to one launch (a syntax error that swallowed one).
    problems: list[ParseProblem] = field(default_factory=list)
    # ``--config PATH`` references of the launches, as in ``ParsedDocument``.
    config_refs: list[tuple[Launch, Word]] = field(default_factory=list)


class Top(NamedTuple):
    """One top-level statement of a script, as last read.  A tuple: every
    statement below an edit is made again, shifted, on each keystroke."""

    start: int
    end: int
    pure: bool  # reading it changed no variable, function or option
    snap: Snapshot | None  # the state before it; None once positions after an edit moved


_WORDISH = frozenset(
    {
        "word", "string", "raw_string", "ansi_c_string", "concatenation",
        "simple_expansion", "expansion", "command_substitution", "number",
        "arithmetic_expansion", "process_substitution", "translated_string",
        "brace_expression", "extglob_pattern",
    }
)
# ``read_yaml(text, start, end, chunk, marks, when)``: the launches of the
# YAML ``chunk`` (``text[start:end]`` with expansions masked), see
# ``yamlforms.embedded_launches``.
ReadYaml = Callable[[str, int, int, str, "templates.Marks | None", str], list[Launch]]

# Commands a heredoc holding a manifest is written with or fed to.
_MANIFEST_WRITERS = frozenset({"cat", "tee", "kubectl", "oc", "envsubst"})
# A Kubernetes resource or a compose file starts one of its lines so.
_MANIFEST_KEYS = re.compile(r"^ *(?:apiVersion|kind|services):", re.M)
_LEADING_TABS = re.compile(r"^\t+", re.M)
# A parameter expansion, command substitution or arithmetic of an unquoted
# heredoc, or an escaped character (``\$x``: one character less than written,
# which the YAML reader cannot be shown in place).
_EXPANSION = re.compile(r"\\[$`\\]\w*|\$\{[^}\n]*\}|\$\(\(?[^)\n]*\)?\)|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|`[^`\n]*`")
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_CONDITIONAL = frozenset(
    {"elif_clause", "else_clause", "case_item", "do_group", "while_statement"}
)
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "sbatch"})
_BUILTINS = frozenset({"source", ".", "read", "mapfile", "readarray", "getopts", "printf", ":", "set"})
_READ_VALUE_OPTS = frozenset({"-p", "-d", "-n", "-N", "-t", "-u", "-i", "-C", "-c", "-O", "-s"})
_SSH_VALUE = frozenset(
    {"-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O",
     "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"}
)


def parse_shell(
    text: str,
    *,
    offsets: Sequence[int] | None = None,
    base: int = 0,
    form: Form = Form.SHELL,
    env: dict[str, EnvVar] | None = None,
    expand: str = "shell",
) -> ShellResult:
    """The launches in a shell script (a whole file or one embedded in another form).

    ``offsets[i]`` is the document offset of ``text[i]`` (``len(text) + 1``
    entries); without it ``text[i]`` sits at ``base + i``.  Every span in the
    result is a document span.  ``env``: variables the host form sets (they
    count as exported).  ``expand``: "shell", "k8s" (``$(VAR)`` replaced from
    ``env`` first, ``$$`` escapes) or "github" (``${{ ... }}`` is unknown).

    Never raises: a script that cannot be read yields what could be read.
    """
    try:
        return _parse(text, offsets, base, form, env or {}, expand, None)
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        if os.environ.get("SERVELINT_STRICT"):
            raise
        return ShellResult()


def _parse(
    text: str,
    offsets: Sequence[int] | None,
    base: int,
    form: Form,
    env: dict[str, EnvVar],
    expand: str,
    outer_vars: dict[str, "Var"] | None,
) -> ShellResult:
    if offsets is not None and len(offsets) < len(text) + 1:
        offsets = list(offsets) + [offsets[-1] if offsets else base] * (len(text) + 1 - len(offsets))
    unknown: list[tuple[int, int]] = []
    lit = src = text
    if expand == "k8s":
        lit, offsets = k8s_expand(text, offsets, base, env)
        src = lit
    elif expand == "github" and "${{" in text:
        src, unknown = mask_github(text)
    walker = Walker(lit, ascii_only(src), offsets, base, form, env, expand, unknown, outer_vars)
    return walker.run()


class Walker:
    """One pass over one script."""

    def __init__(
        self,
        lit: str,
        src: str,
        offsets: Sequence[int] | None,
        base: int,
        form: Form,
        env: dict[str, EnvVar],
        expand: str,
        unknown: list[tuple[int, int]],
        outer_vars: dict[str, Var] | None,
    ) -> None:
        self.text = ScriptText(lit, src, offsets, base, unknown)
        self.scope = Scope(self.text, env, outer_vars)
        # A weak reference: the walker is freed by reference counting, not
        # left for the cyclic collector (which the server keeps off the
        # keystroke path).
        self.expander = Expander(self.text, self.scope, _weak(self._isolated))
        self.form = form
        self.expand = expand
        # ids of the launches read in a function's body: they stand where the
        # body is and hold the variables of where it was called, maybe below.
        self.in_calls: set[int] = set()
        self.seen_subst: set[int] = set()
        self.launches: list[Launch] = []
        self.problems: list[ParseProblem] = []
        # Launches found in this text itself (not in a script nested in it).
        self.direct: list[Launch] = []
        self.pending_unset: list[tuple[Launch, str, Span]] = []
        # The top-level statements as walked (None: not statement by
        # statement, after a syntax error); see ``incremental``.
        self.tops: list[Top] | None = None
        # At most this many launches are read (0: all); past them, the
        # entry (``vllm serve``) of the next.
        self.max_launches = 0
        self.unread: Span | None = None
        self.stopped_in_walk = False  # ... in a top-level statement (see ``document._prefix_end``)
        self.stopped_early = False  # ... and a statement follows the one it stopped in
        # Reads the launches of YAML a heredoc holds (the YAML forms' reader,
        # handed in by ``parse.parse_document``: YAML reads shell scripts
        # too, so this package does not import it); None: not read.
        self.read_yaml: ReadYaml | None = None
        self.embedded = 0  # launches read from such YAML

    # -- driver --------------------------------------------------------------------

    def run(self) -> ShellResult:
        self.text.data = self.text.src.encode("utf-8", "surrogatepass")
        tree = parse_tree(self.text.data)
        root = tree.root_node
        if self.tops is not None and not root.has_error:
            self._walk_tops(root)
        else:
            self.tops = None
            self._stmt(root)
        for name in list(self.scope.functions):
            if self.unread is None and name not in self.scope.called:  # never called: read it with the final globals
                self._call(name)
                self._past_limit()
        self._finish_unset()
        if root.has_error:
            attach_errors(self.text, root, self.launches, self.problems)
            if self.unread is not None:
                # Past the launch limit nothing is checked, syntax neither
                # (the head of the script is all a long one's parse reads).
                self.problems = [p for p in self.problems if p.span.start < self.unread.start]
        for launch in self.direct:
            launch.layout = self._layout(launch)
        self.launches.sort(key=lambda l: (l.span.start, l.span.end))
        refs = [(launch, w) for launch in self.launches for w in config_refs(launch)]
        return ShellResult(self.launches, self.problems, refs)

    def _walk_tops(self, root: Node, journal: bool = True) -> None:
        """Walk the script statement by statement, noting which leave the state alone.

        With ``journal``, each statement that follows a change of state gets
        a snapshot to re-read it from; without, none does (the caller knows
        the state: ``reread``)."""
        log = Journal(self.scope) if journal else None
        snap = None
        snap_version = -1
        tops: list[Top] = []
        children = root.children
        for k, child in enumerate(children):
            if log is not None and snap_version != self.scope.version:
                snap = log.snapshot(self.scope)
                snap_version = self.scope.version
            before = self.scope.version
            if child.is_named:  # not a bare ``&`` or ``;``, which reads as nothing
                self._stmt(child)
            tops.append(Top(child.start_byte, child.end_byte, self.scope.version == before, snap))
            if self._past_limit():
                # Past the launch limit: nothing after it is checked.
                self.stopped_in_walk = True
                self.stopped_early = any(c.is_named for c in children[k + 1 :])
                break
        self.tops = tops

    def reread(self, snap: Snapshot, assigned, sourced: bool) -> bool:
        """Walk this text, the statements of a script an edit touched, from
        ``snap`` (the state before them), as the walk of the whole script
        would; ``assigned`` and ``sourced`` are what that walk found.  False
        when this cannot stand for it: the text does not parse alone, or
        it changes variables or functions that later launches may read."""
        snap.restore(self.scope)
        self.tops = []
        before = self.scope.version
        self.text.data = self.text.src.encode("utf-8", "surrogatepass")
        tree = parse_tree(self.text.data)
        root = tree.root_node
        if root.has_error:
            return False
        self._walk_tops(root, journal=False)
        if self.scope.version != before:
            return False
        self.scope.assigned = set(assigned)
        self.scope.sourced = sourced
        self._finish_unset()
        for launch in self.direct:
            launch.layout = self._layout(launch)
        return True

    def _past_limit(self) -> bool:
        """Whether the walk is past the launch limit.  A launch found some
        other way than as a command of its own (an alias, a script fed to a
        shell) is counted here, after its statement."""
        if self.unread is None and self.max_launches and len(self.launches) > self.max_launches:
            self.unread = self.launches[self.max_launches].entry_span
        return self.unread is not None

    # -- statements --------------------------------------------------------------

    def _stmt(self, node: Node) -> None:
        t = node.type
        if t == "command":
            self._command(node, [])
        elif t == "redirected_statement":
            self._redirected(node)
        elif t == "variable_assignment":
            self._assign(node, export=self.scope.allexport)
        elif t == "declaration_command":
            joined = self._joined(node)
            self._declare(node, joined[0] if joined else None)
            if joined:
                self._lines_alone(joined[1], [])
        elif t == "unset_command":
            joined = self._joined(node)
            for c in joined[0] if joined else node.named_children:
                self.scope.unset(self.text.of(c))
            if joined:
                self._lines_alone(joined[1], [])
        elif t == "function_definition":
            self._define(node)
        elif t == "list":
            self._list(node)
        elif t in ("subshell", "pipeline", "command_substitution", "process_substitution"):
            self._isolated(node)
        elif t == "if_statement":
            self._if(node)
        elif t in ("for_statement", "select_statement"):
            self._for(node)
        elif t in _CONDITIONAL or t == "c_style_for_statement":
            self._conditional(node)
        elif t == "ERROR":
            self._error(node)
        elif t in ("comment", "heredoc_body", "test_command", "word", "string"):
            return
        else:
            for c in node.named_children:
                if self._past_limit():
                    break  # past the launch limit (see ``_walk_tops``)
                self._stmt(c)

    def _isolated(self, node: Node) -> None:
        """A subshell: its variable changes do not reach the script."""
        if node.type == "command_substitution":
            if node.start_byte in self.seen_subst:
                return
            self.seen_subst.add(node.start_byte)
        saved = self.scope.vars.copy()
        mark = len(saved.log)
        for c in node.named_children:
            self._stmt(c)
        self.scope.vars = saved
        # Putting the variables back changes them again: log it.
        saved.log.extend(dict.fromkeys(saved.log[mark:]))

    def _conditional(self, node: Node) -> None:
        self.scope.cond += 1
        try:
            for c in node.named_children:
                self._stmt(c)
        finally:
            self.scope.cond -= 1

    def _list(self, node: Node) -> None:
        """``a && b``, ``a || b``: only the first command always runs."""
        kids = node.named_children
        if not kids:
            return
        self._guards(node)
        self._stmt(kids[0])
        self.scope.cond += 1
        try:
            for c in kids[1:]:
                self._stmt(c)
        finally:
            self.scope.cond -= 1

    def _if(self, node: Node) -> None:
        """The condition always runs; the branches may not."""
        self._guards(node)
        depth = self.scope.cond
        try:
            for c in node.children:
                if c.type == "then":
                    self.scope.cond = depth + 1
                elif c.type in ("elif_clause", "else_clause"):
                    self.scope.cond = depth
                    self._conditional(c)
                elif c.is_named:
                    self._stmt(c)
        finally:
            self.scope.cond = depth

    def _guards(self, node: Node) -> None:
        """``[ -z "$X" ] && exit 1``, ``[ -n "$X" ] || { echo ...; exit 1; }``,
        ``if [ -z "$X" ]; then ...; exit 1; fi``: past this, X is set."""
        kids = node.children
        if node.type == "list":
            ops = [c.type for c in kids if not c.is_named]
            named = node.named_children
            if len(named) < 2 or not ops or not _EXITS.search(self.text.of(named[-1])):
                return
            test, when = self.text.of(named[0]), ops[0]
        else:  # if_statement: the condition, then the branch that exits
            cond = [c for c in kids[: next((k for k, c in enumerate(kids) if c.type == "then"), 0)] if c.is_named]
            then = [c for c in node.named_children if c not in cond and c.type not in ("elif_clause", "else_clause")]
            if not cond or not any(_EXITS.search(self.text.of(c)) for c in then):
                return
            test, when = " ".join(self.text.of(c) for c in cond), "&&"
        for name in _tested(test, "-z" if when == "&&" else "-n"):
            self.scope.guard(name, self.text.span(node))

    def _for(self, node: Node) -> None:
        name = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        if name is not None and body is not None:
            # ``for v in MODEL TP; do [ -z "${!v}" ] && exit 1; done``
            loop = self.text.of(name)
            text = self.text.of(body)
            if _EXITS.search(text) and re.search(r"-z\s+\"?\$\{!" + re.escape(loop) + r"\}", text):
                for c in node.children_by_field_name("value"):
                    word = self.text.of(c)
                    if re.fullmatch(r"[A-Za-z_]\w*", word):
                        self.scope.guard(word, self.text.span(node))
        if name is not None:
            self.scope.set(
                self.text.of(name),
                Var(note=f"${self.text.of(name)} is a loop variable"),
                self.text.span(name),
            )
        self._conditional(node)

    def _define(self, node: Node) -> None:
        self.scope.version += 1
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is not None and body is not None:
            self.scope.functions.setdefault(self.text.of(name), body)

    def _call(self, name: str) -> None:
        """A function's body runs at its first call, seeing the globals then."""
        self.scope.version += 1
        self.scope.called.add(name)
        body = self.scope.functions[name]
        if not isinstance(body, Node):
            # Defined before a snapshot, which keeps only the name (see
            # ``Journal``): a call changes the state, so a re-read from the
            # snapshot stops here and the whole script is read again.
            return
        self.scope.frames.append({})
        before = len(self.launches)
        try:
            self._stmt(body)
            self.in_calls.update(id(launch) for launch in self.launches[before:])
        finally:
            frame = self.scope.frames.pop()
            for var, old in frame.items():
                if old is None:
                    self.scope.vars.pop(var, None)
                else:
                    self.scope.vars[var] = old

    def _redirected(self, node: Node) -> None:
        redirects = [c for c in node.named_children if c.type in _REDIRECTS]
        body = [c for c in node.named_children if c.type not in _REDIRECTS]
        for c in body:
            if c.type == "command":
                self._command(c, redirects)
            else:
                self._stmt(c)
                if redirects:
                    self._stdin_scripts(None, redirects)
        for r in redirects:
            # ``> log`` then a line starting with a backslash: read as one
            # more file name (see ``_joined_lines``).
            joined = self._joined(r) if r.type == "file_redirect" else None
            if joined:
                self._lines_alone(joined[1], [])

    # -- variables ---------------------------------------------------------------

    def _assign(self, node: Node, *, export: bool = False, local: bool = False) -> None:
        kids = node.children
        if not kids:
            return
        target = kids[0]
        if target.type == "subscript":  # ``A[1]=x``: keep it simple, the array is unknown
            arr = target.named_children[0] if target.named_children else target
            name = self.text.of(arr)
            self.scope.set(name, Var(is_array=True, note=f"${name} is changed element by element"), self.text.span(node))
            return
        name = self.text.of(target)
        append = len(kids) > 1 and kids[1].type == "+="
        value = kids[2] if len(kids) > 2 else None
        span = self.text.span(node)
        if value is not None and value.type == "array":
            var = self._array_value(name, value)
        elif value is None:
            var = Var(value=MStr.empty())
        else:
            b = Builder()
            b.assign = True
            self.expander.add(value, b, quoted=True)
            m = b.joined()
            if b.exact:
                var = Var(value=m)
            else:
                why = f" ({b.notes[0]})" if b.notes else ""
                var = Var(note=f"${name} is only known when the script runs{why}")
        if append:
            old = self.scope.vars.get(name)
            var = appended(old, var, name)
        var.exported = export
        self.scope.set(name, var, span, local=local)

    def _array_value(self, name: str, node: Node) -> Var:
        items: list[MStr] = []
        spans: list[Span] = []
        for c in node.named_children:
            if c.type == "comment":
                continue
            for out in self.expander.words(c):
                if out.opaque or not out.word.exact:
                    return Var(is_array=True, note=f"${{{name}[@]}} holds values only known when the script runs")
                items.append(out.m)
                spans.append(out.word.span)
        return Var(items=items, item_spans=spans, is_array=True)

    def _declare(self, node: Node, named: list[Node] | None = None) -> None:
        """``export``/``local``/``declare``...; ``named``: its named children
        when not all are its own (see ``_joined``)."""
        kids = node.children
        keyword = kids[0].type if kids else ""
        named = node.named_children if named is None else named
        opts = {self.text.of(c) for c in named if c.type == "word"}
        export = keyword == "export" or any(o.startswith("-") and "x" in o for o in opts)
        local = keyword == "local" or (keyword in ("declare", "typeset") and "-g" not in opts and bool(self.scope.frames))
        for c in named:
            if c.type in ("command_substitution", "simple_expansion", "expansion", "concatenation", "string"):
                # ``export $(grep -v '^#' .env | xargs)``: names we cannot see.
                self.scope.version += 1
                self.scope.sourced = True
            elif c.type == "variable_assignment":
                self._assign(c, export=export or self.scope.allexport, local=local)
            elif c.type == "variable_name":
                name = self.text.of(c)
                old = self.scope.vars.get(name)
                if old is not None:
                    if export:
                        # A new object: snapshots of ``vars`` (subshells) share the old one.
                        self.scope.version += 1
                        self.scope.vars[name] = replace(old, exported=True)
                        self.scope.exported.add(name)
                    if local:
                        self.scope.set(name, Var(note=f"${name} is declared without a value"), self.text.span(c), local=True)
                else:
                    self.scope.set(
                        name,
                        Var(exported=export, note=f"${name} comes from the environment"),
                        self.text.span(c),
                        local=local,
                    )

    def _builtin(self, name: str, kids: list[Node], a: int, b: int) -> bool:
        """Commands that change variables. True when the command (its named
        children ``kids``, at ``[a, b)``) was one."""
        if name not in _BUILTINS:
            return False
        if name in ("source", "."):
            self.scope.version += 1
            self.scope.sourced = True
            return True
        args = [c for c in kids if c.type in _WORDISH]
        if name in ("read", "mapfile", "readarray", "getopts", "printf"):
            texts = [self.text.of(c) for c in args]
            targets: list[str] = []
            if name == "getopts" and len(texts) >= 2:
                targets = [texts[1]]
            elif name == "printf":
                if "-v" in texts and texts.index("-v") + 1 < len(texts):
                    targets = [texts[texts.index("-v") + 1]]
            else:
                skip = False
                for t in texts:
                    if skip:  # the value of an option such as ``-p PROMPT``
                        skip = False
                    elif t in _READ_VALUE_OPTS:
                        skip = True
                    elif not t.startswith("-"):
                        targets.append(t)
            for t in targets:
                if re.fullmatch(r"[A-Za-z_]\w*", t):
                    self.scope.set(t, Var(note=f"${t} is read when the script runs"), self.text.doc_span(a, b))
            return name != "printf" or bool(targets)
        if name == ":":
            # ``: "${X:=default}"`` is how scripts set defaults.
            for c in args:
                self.expander.words(c)
            return True
        if name == "set":
            self.scope.version += 1
            for c in args:
                t = self.text.of(c)
                if t.startswith("-") and "a" in t[1:] and not t.startswith("--"):
                    self.scope.allexport = True
                elif t.startswith("+") and "a" in t[1:]:
                    self.scope.allexport = False
                elif t == "allexport":
                    self.scope.allexport = True
                if (t.startswith("-") and not t.startswith("--") and "u" in t[1:]) or t == "nounset":
                    self.scope.guard("-u", self.text.doc_span(a, b), "nounset")
            return True
        return False

    # -- commands ----------------------------------------------------------------

    def _command(self, node: Node, redirects: list[Node]) -> None:
        joined = self._joined(node)
        if joined is None:
            self._simple_command(node.named_children, node.start_byte, node.end_byte, redirects)
            return
        own, lines = joined
        if own:
            # A comment ending its line is not part of the command.
            end = next((c.end_byte for c in reversed(own) if c.type != "comment"), own[-1].end_byte)
            self._simple_command(own, node.start_byte, end, [])
        self._lines_alone(lines, redirects)

    def _joined(self, node: Node) -> tuple[list[Node], list[tuple[int, int, int]]] | None:
        """``node``'s own named children and the lines tree-sitter-bash joined
        to it (see ``_joined_lines``), or None when it joined none."""
        a = node.start_byte
        if self.text.src.find("\n", a, node.end_byte) < 0:
            return None
        kids = node.named_children
        lines = self._joined_lines(kids, a)
        return (kids[: lines[0][0]], lines) if lines else None

    def _lines_alone(self, lines: list[tuple[int, int, int]], redirects: list[Node]) -> None:
        """Each joined line read alone; ``redirects`` (of the statement they
        were joined in) go with the last."""
        for k, (_, start, end) in enumerate(lines):
            self._line_alone(start, end, redirects if k == len(lines) - 1 else [])

    def _joined_lines(self, kids: list[Node], start: int) -> list[tuple[int, int, int]]:
        """Lines tree-sitter-bash joined to the command on the line above.

        It reads a line starting with a backslash (``\\"x``) as more words of
        the command above, the line break included in the first of them (a
        grammar bug); to a shell the line break ends that command and the
        line is a command of its own.  No word of a command can start after
        a line break that no backslash continues.  Each joined line as (index
        of its first child, where it starts, where it ends)."""
        src = self.text.src
        starts: list[tuple[int, int]] = []
        for k, c in enumerate(kids):
            at = c.start_byte
            while at < c.end_byte and src[at] in "\r\n":
                at += 1
            gap = src[kids[k - 1].end_byte if k else start : at].replace("\\\r\n", "").replace("\\\n", "")
            if "\n" in gap:
                starts.append((k, at))
        return [(k, at, kids[starts[n + 1][0] - 1].end_byte if n + 1 < len(starts) else kids[-1].end_byte)
                for n, (k, at) in enumerate(starts)]

    def _line_alone(self, a: int, b: int, redirects: list[Node]) -> None:
        """Read ``[a, b)`` (one line ``_joined_lines`` found) as the statement it is."""
        tree = parse_range(self.text.data, self.text.src, a, b)
        for c in tree.root_node.children:
            if c.type == "command":
                self._simple_command(c.named_children, c.start_byte, c.end_byte, redirects)
            elif c.is_named:
                self._stmt(c)

    def _simple_command(self, kids: list[Node], a: int, b: int, redirects: list[Node]) -> None:
        """The command made of ``kids`` (named children), at ``[a, b)``."""
        # The ``name`` field: the grammar has no other ``command_name`` (and
        # this is cheaper than asking for the field by name).
        name_node = next((c for c in kids if c.type == "command_name"), None)
        if name_node is None:
            for c in kids:  # ``A=1`` alone on the line above a joined one
                if c.type == "variable_assignment":
                    self._stmt(c)
            return
        name = self.text.of(name_node)
        if self._builtin(name, kids, a, b):
            return
        if name in self.scope.functions and name not in self.scope.called:
            self._call(name)
        if not (could_start_launch(name) or "$" in name):
            # Most commands: only a script fed to them, or a launch inside a
            # ``$(...)`` of theirs, can matter.
            text = self.text.lit[a:b]
            if redirects or "vllm" in text:
                prefix, args, stdin = self._command_parts(kids, redirects)
                if "$(" in text or "`" in text:
                    for c in args:
                        self._walk_substitutions(c)
                if stdin:
                    self._written_file(name, args, stdin)
                    self._heredoc_manifest(name, stdin)
                    self._stdin_scripts([name_node] + args, stdin)
            return
        prefix, args, stdin = self._command_parts(kids, redirects)
        args.insert(0, _name_word(name_node))
        words, special = self.expander.argv(args)
        env = self._env(prefix)
        launches = find_launches(words, form=self.form, env=env, expand=self._inner_expand(),
                                   parse_script=parse_shell)
        if launches and self.max_launches and len(self.launches) >= self.max_launches:
            # Past the limit: the walk stops here (reading the rest would be
            # most of the parse of a long script, for launches not checked).
            if self.unread is None:
                self.unread = launches[0].entry_span
            return
        for launch in launches:
            self._adopt(launch, a, b, words, special)
        if stdin and not launches:
            self._stdin_scripts(args, stdin, words)

    def _command_parts(self, kids: list[Node], redirects: list[Node]) -> tuple[list[Node], list[Node], list[Node]]:
        """(env prefixes, arguments, redirections) of a command node's named children."""
        prefix: list[Node] = []
        args: list[Node] = []
        stdin: list[Node] = list(redirects)
        seen_name = False
        for c in kids:
            t = c.type
            if t == "variable_assignment" and not seen_name:
                prefix.append(c)
            elif t == "command_name":
                seen_name = True
            elif t in _REDIRECTS:
                stdin.append(c)
            elif t != "comment":
                args.append(c)
        return prefix, args, stdin

    def _walk_substitutions(self, node: Node) -> None:
        if node.type in ("command_substitution", "process_substitution"):
            self._isolated(node)
            return
        for c in node.named_children:
            self._walk_substitutions(c)

    def _inner_expand(self) -> str:
        return "github" if self.expand == "github" else "shell"

    def _env(self, prefix: list[Node]) -> Env:
        """The environment a command sees: exported variables and its prefixes."""
        if not prefix:
            return self.scope.exported_env()
        env = Env.over(self.scope.exported_env())
        for p in prefix:
            kids = p.children
            if not kids or kids[0].type != "variable_name":
                continue
            name = self.text.of(kids[0])
            value = kids[2] if len(kids) > 2 else None
            if value is None:
                env[name] = EnvVar(name, "", self.text.span(p), True)
                continue
            b = Builder()
            self.expander.add(value, b, quoted=True)
            env[name] = EnvVar(name, b.joined().text if b.exact else None, self.text.span(p), b.exact)
        return env

    def _adopt(self, launch: Launch, a: int, b: int, words: list[Word], special: dict[int, Out]) -> None:
        """Finish a launch found in the command at ``[a, b)`` of this text.

        ``special``: the words that may hide several (opaque) or use unset
        variables, by id (see ``Expander.argv``)."""
        self.launches.append(launch)
        if self.scope.written:
            self._attach_written_config(launch)
        if not words or launch.span.start != words[0].span.start:
            self._explain_hidden(launch)
            return  # found inside a nested script, which finished it
        launch.span = cover(self.text.doc_span(a, b), launch.span)
        self.direct.append(launch)
        if not special:
            return
        args: list[Word] = []
        for w in launch.args:
            out = special.get(id(w))
            if out is not None and out.opaque:
                launch.opaque.append(w)
                continue
            args.append(w)
            if out is not None and out.unset:
                self._note_unset(launch, w, out)
        launch.args = args

    # -- files the script writes -------------------------------------------------

    def _written_file(self, name: str, args: list[Node], redirects: list[Node]) -> None:
        """``cat > F <<EOF``, ``cat <<'EOF' > F``, ``tee F <<-EOF``: what F holds."""
        prog = basename(name)
        if prog not in ("cat", "tee"):
            return
        heredoc = next((r for r in redirects if r.type == "heredoc_redirect"), None)
        if heredoc is None:
            return
        targets: list[tuple[Node, bool]] = []  # (the file's word, appended)
        for r in redirects + [c for c in heredoc.named_children if c.type == "file_redirect"]:
            if r.type != "file_redirect":
                continue
            op = next((c.type for c in r.children if not c.is_named), "")
            word = next((c for c in r.named_children if c.type in _WORDISH), None)
            if word is not None and op in (">", ">|", ">>") and (prog == "cat" or op != ">"):
                targets.append((word, op == ">>"))
        if prog == "tee":
            texts = [self.text.of(c) for c in args]
            append = "-a" in texts or "--append" in texts
            targets += [(c, append) for c, t in zip(args, texts) if not t.startswith("-")]
        if not targets:
            return
        body = next((c for c in heredoc.named_children if c.type == "heredoc_body"), None)
        start = next((c for c in heredoc.named_children if c.type == "heredoc_start"), None)
        quoted = start is not None and any(q in self.text.of(start) for q in "'\"\\")
        dash = any(c.type == "<<-" for c in heredoc.children)
        text, unknown = self._heredoc_text(body, quoted, dash)
        span = self.text.span(heredoc)
        for word, append in targets:
            outs = self.expander.words(word)
            if len(outs) != 1 or not outs[0].word.exact:
                continue
            path = written_key(outs[0].word.text)
            self.scope.version += 1
            if append or self.scope.cond:
                self.scope.written.pop(path, None)  # what it holds depends on what ran before
            else:
                self.scope.written[path] = WrittenFile(path, text, span, unknown)

    def _heredoc_manifest(self, name: str, redirects: list[Node]) -> None:
        """A manifest or compose file a heredoc writes or feeds to a tool
        (``cat > app.yaml <<EOF``, ``kubectl apply -f - <<EOF``): its launches,
        read at their place in this script.  Only in a script that is the
        whole document (the heredoc's characters are where they are written);
        in an unquoted heredoc every ``$`` expansion is a value the script
        gives when it runs: its words are inexact, as a template's are."""
        if (self.read_yaml is None or basename(name) not in _MANIFEST_WRITERS
                or self.text.offs is not None or self.text.base):
            return
        heredoc = next((r for r in redirects if r.type == "heredoc_redirect"), None)
        body = heredoc and next((c for c in heredoc.named_children if c.type == "heredoc_body"), None)
        start = heredoc and next((c for c in heredoc.named_children if c.type == "heredoc_start"), None)
        if body is None or start is None:
            return
        a, b = body.start_byte, body.end_byte
        lit = self.text.lit
        chunk = lit[a:b]
        if any(c.type == "<<-" for c in heredoc.children):
            # bash drops leading tabs; YAML forbids them: the same width in spaces.
            chunk = _LEADING_TABS.sub(lambda m: " " * len(m.group(0)), chunk)
        if "\n" not in chunk or not _MANIFEST_KEYS.search(chunk):
            return
        marks = None
        if not any(q in self.text.of(start) for q in "'\"\\"):
            chars, marks = list(chunk), templates.Marks()
            for m in _EXPANSION.finditer(chunk):
                for k in range(m.start(), m.end()):
                    chars[k] = templates.PLACEHOLDER
                marks.values.append((Span(a + m.start(), a + m.end()), m.group(0)))
            chunk = "".join(chars)
        found = self.read_yaml(lit, a, b, chunk, marks, "given when the script runs")
        self.embedded += len(found)
        self.launches.extend(found)

    def _heredoc_text(self, body: Node | None, quoted: bool, dash: bool) -> tuple[MStr, list[tuple[Span, str]]]:
        """A heredoc's text as the command reads it: expanded unless the
        delimiter is quoted, leading tabs dropped for ``<<-``."""
        if body is None:
            return MStr.empty(), []
        a, b = body.start_byte, body.end_byte
        unknown: list[tuple[Span, str]] = []
        if quoted:
            out = self.text.verbatim(a, b)
        else:
            out = MStr.empty()
            pos = a
            for c in body.named_children:
                if c.start_byte > pos:
                    out = out + _heredoc_literal(self.text.verbatim(pos, c.start_byte))
                if c.type == "heredoc_content":
                    out = out + _heredoc_literal(self.text.verbatim(c.start_byte, c.end_byte))
                else:
                    built = Builder()
                    self.expander.add(c, built, quoted=True)
                    value = built.joined()
                    span = self.text.span(c)
                    if not built.exact:
                        unknown.append((span, "; ".join(built.notes) or "a value known only when the script runs"))
                        value = self.text.verbatim(c.start_byte, c.end_byte)
                    out = out + value
                pos = c.end_byte
            if b > pos:
                out = out + _heredoc_literal(self.text.verbatim(pos, b))
        if dash:
            keep = [k for k in range(len(out.text)) if not (out.text[k] == "\t" and _only_tabs(out.text, k))]
            out = MStr("".join(out.text[k] for k in keep), [out.starts[k] for k in keep], [out.ends[k] for k in keep])
        return out, unknown

    def _attach_written_config(self, launch: Launch) -> None:
        """A launch naming ``--config F`` where F is a file the script wrote."""
        for ref in config_refs(launch):
            if not ref.exact:
                continue
            got = self.scope.written.get(written_key(ref.text))
            if got is None:
                continue
            cfg = config_of(got)
            if cfg is not None:
                launch.written_config = cfg
                # Its own problems (a dropped `false`) belong to this launch:
                # vLLM reads the file for it.
                launch.problems.extend(cfg.problems)
            return

    def _explain_hidden(self, launch: Launch) -> None:
        """An inner script (``sh -c '...'``) sees only exported variables: an
        input of it that this file sets without exporting is the one case
        where the file shows an empty value reaching vLLM."""
        for inp in launch.inputs:
            var = self.scope.vars.get(inp.name)
            if var is None or var.exported or any(p.data.get("variable") == inp.name for p in launch.problems):
                continue
            launch.problems.append(
                ParseProblem(
                    problems.UNSET_VARIABLE,
                    f"${inp.name} is set in this file but not exported, so the inner "
                    "script does not see it: vLLM would receive an empty value",
                    inp.uses[0],
                    "warning",
                    {"variable": inp.name},
                )
            )

    def _note_unset(self, launch: Launch, w: Word, out: Out) -> None:
        """Unset variables matter in a value or the model, not in a flag's name."""
        eq = w.text.find("=") if w.text.startswith("-") else -1
        for name, span, index in out.unset:
            if w.text.startswith("-") and (eq < 0 or index <= eq):
                continue
            # A guard protects the launches after it (the shell stopped before).
            self.pending_unset.append((launch, name, span, self.scope.guard_of(name)))

    def _finish_unset(self) -> None:
        """The variables each launch reads that this script never sets: its
        inputs, with the guards seen before the launch.  Not a problem: the
        caller gives them (issue 16, item 1); see ``_explain_hidden`` for the
        one case the file shows them empty."""
        if self.scope.sourced:
            return  # a sourced file may set any of them
        found: dict[tuple[int, str], Input] = {}
        for launch, name, span, guard in self.pending_unset:
            if name in self.scope.assigned:
                continue
            inp = found.get((id(launch), name))
            if inp is None:
                inp = found[(id(launch), name)] = Input(name, [], *(guard or (None, None)))
                launch.inputs.append(inp)
            if span not in inp.uses:
                inp.uses.append(span)

    def _layout(self, launch: Launch) -> str:
        if not launch.args:
            return "single-line"
        a = self.text.local(launch.entry_span.start)
        b = self.text.local(launch.args[-1].span.end)
        src = self.text.src
        return "multiline-backslash" if src.find("\\\n", a, b) >= 0 or src.find("\\\r\n", a, b) >= 0 else "single-line"

    # -- scripts inside scripts --------------------------------------------------

    def _stdin_scripts(self, kids: list[Node] | None, redirects: list[Node], words: list[Word] | None = None) -> None:
        """A heredoc or here-string fed to a shell is a script; one fed to ``cat`` is data."""
        bodies = []
        for r in redirects:
            if r.type == "heredoc_redirect":
                body = next((c for c in r.named_children if c.type == "heredoc_body"), None)
                start = next((c for c in r.named_children if c.type == "heredoc_start"), None)
                if body is not None and "vllm" in self.text.of(body):
                    quoted = start is not None and any(q in self.text.of(start) for q in "'\"\\")
                    bodies.append((body.start_byte, body.end_byte, not quoted))
            elif r.type == "herestring_redirect":
                for c in r.named_children:
                    if "vllm" in self.text.of(c):
                        bodies.append(("word", c, None))
        if not bodies or kids is None:
            return
        if words is None:
            words = []
            for c in kids:
                if c.type == "command_name" or (c.type in _WORDISH):
                    words.extend(o.word for o in self.expander.words(_name_word(c)))
        if not _reads_script(words):
            return
        for item in bodies:
            if item[0] == "word":
                for out in self.expander.words(item[1]):
                    self._nested(out.m, self.scope.exported_env(), None)
            else:
                a, b, expands = item
                text = MStr(self.text.lit[a:b], [self.text.doc(i) for i in range(a, b)], [self.text.doc(i + 1) for i in range(a, b)])
                # An unquoted heredoc is expanded by this shell first: the inner
                # script sees this script's variables, exported or not.
                inherited = {k: replace(v) for k, v in self.scope.vars.items()} if expands else None
                self._nested(text, self.scope.exported_env(), inherited)

    def _nested(self, script: MStr, env: dict[str, EnvVar], outer_vars: dict[str, Var] | None) -> None:
        offsets = script.offsets() or [self.text.doc(0)]
        result = _parse(script.text, offsets, 0, self.form, env, self._inner_expand(), outer_vars)
        for launch in result.launches:
            self._explain_hidden(launch)
        self.launches.extend(result.launches)
        self.problems.extend(result.problems)

    # -- broken input ------------------------------------------------------------

    def _error(self, node: Node) -> None:
        """Inside an ERROR node: still read what looks like commands."""
        run: list[Node] = []
        for c in node.children:
            if c.type == "command_name":
                self._pseudo_command(run)
                run = [c]
            elif run and c.type in _WORDISH:
                run.append(c)
            else:
                self._pseudo_command(run)
                run = []
                if c.is_named and c.type not in _WORDISH:
                    self._stmt(c)
        self._pseudo_command(run)

    def _pseudo_command(self, run: list[Node]) -> None:
        if not run:
            return
        name = self.text.of(run[0])
        if not (could_start_launch(name) or "$" in name):
            return
        words, special = self.expander.argv([_name_word(run[0])] + run[1:])
        a, b = run[0].start_byte, run[-1].end_byte
        for launch in find_launches(words, form=self.form, env=self._env([]), expand=self._inner_expand(),
                                   parse_script=parse_shell):
            self._adopt(launch, a, b, words, special)


def _heredoc_literal(m: MStr) -> MStr:
    """Literal heredoc text: ``\\$``, ``\\```, ``\\\\`` lose their backslash and a
    backslash-newline vanishes (as in double quotes); any other backslash stays."""
    t = m.text
    if "\\" not in t:
        return m
    chars, starts, ends = [], [], []
    k = 0
    while k < len(t):
        if t[k] == "\\" and k + 1 < len(t) and t[k + 1] in "$`\\\n":
            if t[k + 1] != "\n":
                chars.append(t[k + 1])
                starts.append(m.starts[k])
                ends.append(m.ends[k + 1])
            k += 2
            continue
        chars.append(t[k])
        starts.append(m.starts[k])
        ends.append(m.ends[k])
        k += 1
    return MStr("".join(chars), starts, ends)


def _only_tabs(text: str, k: int) -> bool:
    """Whether ``text[k]`` is in the run of tabs that starts its line."""
    j = k
    while j > 0 and text[j - 1] == "\t":
        j -= 1
    return j == 0 or text[j - 1] == "\n"


_EXITS = re.compile(r"\b(?:exit|return)\b")


def _tested(test: str, op: str) -> list[str]:
    """The variables ``test`` checks with ``op`` (``-z`` / ``-n``)."""
    return re.findall(op + r"\s+\"?\$\{?([A-Za-z_]\w*)\}?\"?", test)


def _name_word(node: Node) -> Node:
    """The word inside a ``command_name`` node."""
    if node.type == "command_name" and node.named_child_count:
        return node.named_child(0)
    return node


def _reads_script(words: list[Word]) -> bool:
    """Whether an argv runs a shell that reads its script from stdin."""
    texts = [w.text for w in words]
    for k in range(len(texts) - 1, -1, -1):
        if basename(texts[k]) in _SHELLS:
            rest = texts[k + 1 :]
            if "-s" in rest or all(t.startswith("-") and "c" not in t[1:] for t in rest):
                return True
            return False
    if texts and basename(texts[0]) == "ssh":
        k, positional = 1, []
        while k < len(texts):
            t = texts[k]
            if t in _SSH_VALUE:
                k += 2
                continue
            if not t.startswith("-"):
                positional.append(t)
            k += 1
        return len(positional) == 1
    return False


def _weak(method):
    """``method`` called through a weak reference to its object."""
    ref = weakref.WeakMethod(method)
    return lambda *args: ref()(*args)
