"""``servelint explain``: what a vLLM error message means, from a line or a log.

The launch has already failed and the user holds vLLM's output, not a file.
Every message servelint knows is a ``KnownMessage``: a pattern of the text vLLM
prints, who explains it (a rule, an error record) and the releases it speaks
for.  ``known_messages()`` builds them from two sources:

* the error records (``messagePattern``), bundled and the user's;
* the rules' vLLM checks (``Rule.vllm_checks``): the generated table
  (knowledge/validators) has each check's message, as vLLM's source writes
  it, per release (a release that reworded it has its own template);
* the rules that mirror no check in vLLM's own code (argparse's errors,
  ``vllm serve``'s parser): the text each puts in ``Finding.vllm_message``,
  read from the rule module's source (an f-string becomes a pattern, its
  expressions the holes), with the releases of the rule and of any
  ``at_least(...)`` branch around it.

``explain(text)`` finds every known message in the text, line by line (log
prefixes, argparse's ``prog: error:``, pydantic's ``Value error, ... [type=``
and tracebacks need no stripping: patterns are searched, not anchored), and
returns for each match the rule, the records that document the message, the
releases and the flags it names.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import json
import re
import sys
from functools import lru_cache
from typing import Iterable

from .structs import dataclass, field
from . import __version__, knowledge
from .rules.base import version_key

# Input is a log: big ones are read up to this many characters (the error
# is near the end: the last part is kept).
MAX_INPUT_CHARS = 20_000_000
# A line longer than this is cut before matching (a message quotes the
# user's text, and the patterns hold `(.+?)` holes).
MAX_LINE_CHARS = 4_000
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass(frozen=True)
class KnownMessage:
    """A message vLLM prints, and who explains it."""

    kind: str  # "rule" | "record"
    key: str  # rule code, or record id
    pattern: object  # compiled; .search(text) like re's
    template: str  # the message as its source writes it
    releases: tuple[str, ...]  # known releases it speaks for; () when the source does not say
    specificity: int  # literal characters a match must contain (ranks generic patterns last)
    anchor: str = ""  # literal text every match contains (a fast pre-check)

    def search(self, line: str):
        if self.anchor and self.anchor not in line:
            return None
        try:
            return self.pattern.search(line)
        except TimeoutError:  # a user record's pattern (regex, timed)
            return None


# -- rules' messages, from their source ----------------------------------------------


def _rule_templates() -> list[tuple[type, str, tuple[str, ...]]]:
    """(rule class, template, releases) for every ``vllm_message`` the rule
    modules write: ``Finding(..., vllm_message=X)``, ``X`` as the third
    argument of ``top_facts.finding(ctx, flag, X, key)``, or the message of a
    ReplaySSM ``Problem(RULE_NAME, X, ...)``; a name is followed to what the
    function assigns it.  The holes are written ``{expression}``."""
    from .rules import rule_classes

    by_module: dict[str, list[type]] = {}
    for cls in rule_classes():
        by_module.setdefault(cls.__module__, []).append(cls)
    out = []
    for module_name, classes in by_module.items():
        module = sys.modules[module_name]
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError, SyntaxError):  # no source shipped: nothing to read
            continue
        out.extend(_ModuleReader(tree, classes).read())
    return out


class _ModuleReader:
    def __init__(self, tree: ast.Module, classes: list[type]) -> None:
        self.tree = tree
        self.classes = {c.__name__: c for c in classes}
        self.by_rule_name = {c.name: c for c in classes}
        # Module-level string constants (the ReplaySSM rule names: ARCH = "replayssm-architecture").
        self.constants = {
            n.targets[0].id: n.value.value
            for n in tree.body
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
        }
        self.found: list[tuple[type, str, tuple[str, ...]]] = []

    def read(self) -> list[tuple[type, str, tuple[str, ...]]]:
        for node in self.tree.body:
            if isinstance(node, ast.ClassDef) and node.name in self.classes:
                owners = [self.classes[node.name]]
                for fn in ast.walk(node):
                    if isinstance(fn, ast.FunctionDef):
                        self._function(fn, owners)
            elif isinstance(node, ast.FunctionDef):
                # A helper of the module: its messages are the module's one rule's.
                owners = list(self.classes.values()) if len(self.classes) == 1 else []
                self._function(node, owners)
        return self.found

    def _function(self, fn: ast.FunctionDef, owners: list[type]) -> None:
        assigned: dict[str, list[ast.expr]] = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        assigned.setdefault(t.id, []).append(n.value)
        self._visit(fn.body, assigned, owners, since=None, before=None)

    def _visit(self, body: list, assigned, owners, since, before) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):
                v = _at_least(stmt.test)
                self._calls(stmt.test, assigned, owners, since, before)
                self._visit(stmt.body, assigned, owners, _later(since, v), before)
                self._visit(stmt.orelse, assigned, owners, since, _earlier(before, v))
                continue
            for child_body in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(stmt, child_body, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                    self._visit(inner, assigned, owners, since, before)
            if isinstance(stmt, ast.ExceptHandler):
                continue
            for part in ast.iter_child_nodes(stmt):
                if not isinstance(part, (ast.stmt, ast.excepthandler)):
                    self._calls(part, assigned, owners, since, before)

    def _calls(self, node, assigned, owners, since, before) -> None:
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            name = ast.unparse(call.func)
            exprs = [kw.value for kw in call.keywords if kw.arg == "vllm_message"]
            targets = owners
            if name.endswith(".finding") and len(call.args) >= 3:
                exprs.append(call.args[2])
            if name == "Problem" and len(call.args) >= 2:
                exprs.append(call.args[1])
                rule = call.args[0]
                cls = self.by_rule_name.get(self.constants.get(rule.id, "")) if isinstance(rule, ast.Name) else None
                targets = [cls] if cls is not None else owners
            for expr in exprs:
                for template in _templates(expr, assigned):
                    for cls in targets:
                        self.found.append((cls, template, _releases(cls, since, before)))


def _at_least(test: ast.expr) -> str | None:
    """X of a test ``ctx.at_least("X")`` / ``tf.at_least(ctx, "X")``."""
    if isinstance(test, ast.Call) and ast.unparse(test.func).endswith("at_least"):
        for a in test.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                return a.value
    return None


def _later(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return a or b
    return max(a, b, key=version_key)


def _earlier(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return a or b
    return min(a, b, key=version_key)


def _releases(cls: type, since: str | None, before: str | None) -> tuple[str, ...]:
    rule = cls()
    out = []
    for v in knowledge.RELEASES:
        if not rule.applies_to(v):
            continue
        if since is not None and version_key(v) < version_key(since):
            continue
        if before is not None and version_key(v) >= version_key(before):
            continue
        out.append(v)
    return tuple(out)


def _templates(expr: ast.expr, assigned: dict, depth: int = 0) -> list[str]:
    """The texts an expression can take, holes as ``{expression}``."""
    if depth > 6:
        return []
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [_literal(expr.value)]
    if isinstance(expr, ast.JoinedStr):
        parts = [""]
        for v in expr.values:
            if isinstance(v, ast.Constant):
                parts = [p + _literal(v.value) for p in parts]
            elif isinstance(v, ast.FormattedValue):
                parts = [p + "{" + ast.unparse(v.value) + "}" for p in parts]
        return parts
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left, right = _templates(expr.left, assigned, depth + 1), _templates(expr.right, assigned, depth + 1)
        return [a + b for a in left for b in right][:16]
    if isinstance(expr, ast.IfExp):
        return _templates(expr.body, assigned, depth + 1) + _templates(expr.orelse, assigned, depth + 1)
    if isinstance(expr, ast.Name):
        out: list[str] = []
        for value in assigned.get(expr.id, ()):
            out.extend(_templates(value, assigned, depth + 1))
        return out
    return []


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


_HOLE = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def template_pattern(template: str) -> tuple[str, str, int]:
    """(regex, anchor, specificity) for a ``{hole}`` template: literal text
    escaped (any run of blanks matches any), each hole ``(.+?)``, the last
    one ``(.+)``; the anchor is its longest literal run."""
    literals: list[str] = []
    holes = 0
    current = []
    pos = 0
    for m in _HOLE.finditer(template):
        current.append(template[pos:m.start()])
        token = m.group(0)
        if token in ("{{", "}}"):
            current.append(token[0])
        else:
            literals.append("".join(current))
            current = []
            holes += 1
        pos = m.end()
    current.append(template[pos:])
    literals.append("".join(current))
    regex = []
    for i, lit in enumerate(literals):
        regex.append(r"\s+".join(re.escape(w) for w in re.split(r"\s+", lit)) if lit.strip() else re.escape(lit))
        if i < holes:
            regex.append("(.+)" if i == holes - 1 and not literals[-1].strip() else "(.+?)")
    anchor = max((w for lit in literals for w in re.split(r"\s{2,}|\n", lit)), key=len, default="")
    specificity = sum(len(lit.strip()) for lit in literals)
    return "".join(regex), anchor.strip(), specificity


# -- records --------------------------------------------------------------------------


def _record_messages(store) -> list[KnownMessage]:
    out = []
    for lr in store.records:
        if lr.pattern is None:
            continue
        source = lr.record.messagePattern or ""
        literal = re.sub(r"\\.|[()\[\]{}?*+|^$.]", " ", source)
        # No anchor: a bundled record's pattern checks its own literal
        # prefix before it runs, a user's runs with a time limit.
        out.append(KnownMessage("record", lr.id, lr.pattern, lr.record.errorMessage or source, (),
                                sum(len(w) for w in literal.split())))
    return out


# -- the table ------------------------------------------------------------------------


def _table_templates() -> list[tuple[type, str, tuple[str, ...]]]:
    """(rule class, template, releases) from the generated table, for every
    rule that mirrors vLLM checks: one per wording of each check."""
    from .knowledge import validators
    from .rules import rule_classes

    out = []
    for cls in rule_classes():
        rule = cls()
        for check in cls.vllm_checks:
            if check.code:
                continue  # a line of code a rule depends on, no message
            by_template: dict[str, list[str]] = {}
            for release, site in validators.sites(check.key).items():
                if rule.applies_to(release):
                    by_template.setdefault(site.template, []).append(release)
            out.extend((cls, t, tuple(r)) for t, r in by_template.items())
    return out


@lru_cache(maxsize=1)
def _rule_messages() -> tuple[KnownMessage, ...]:
    out = []
    seen = set()
    from_table = _table_templates()
    # A rule the table knows is read from the table alone; the others from
    # their source.
    known = {cls for cls, _, _ in from_table}
    for cls, template, releases in from_table + [t for t in _rule_templates() if t[0] not in known]:
        key = (cls.code, template)
        if key in seen or not releases:
            continue
        seen.add(key)
        regex, anchor, specificity = template_pattern(template)
        if specificity < 8:
            continue  # nothing but holes: would match any line
        out.append(KnownMessage("rule", cls.code, re.compile(regex), template, releases, specificity, anchor))
    return tuple(out)


def known_messages(records: Iterable[str] = ()) -> list[KnownMessage]:
    """Every message servelint can explain: the records' (bundled, then the
    ``records`` files or folders given) and the rules'."""
    from .records import RecordStore

    return _record_messages(RecordStore.load(records)) + list(_rule_messages())


# -- matching -------------------------------------------------------------------------


@dataclass
class Match:
    """One known message found in the input."""

    message: KnownMessage
    line: int  # 1-based, in the input
    text: str  # the matched text


@dataclass
class Explanation:
    """Everything said about one error message found in the input: the
    rules and records that match it, best first."""

    line: int
    text: str
    rules: list[KnownMessage] = field(default_factory=list)
    records: list[KnownMessage] = field(default_factory=list)
    end_line: int = 0  # the last line of the message (pydantic's wraps argparse's over several)


_TRACEBACK_FRAME = re.compile(r'(?:^|\s)File "[^"]*", line \d+, in ')


def explain(text: str, table: list[KnownMessage]) -> list[Explanation]:
    """The known messages of ``table`` in ``text``: one ``Explanation`` per
    line that holds one, in the order of the input.  The same message (same
    rule or record, same text) counts once, on its last line (a log that
    retries repeats it).  The source lines a traceback quotes are skipped:
    they hold the code that builds a message, not the message."""
    text = _ANSI.sub("", text[-MAX_INPUT_CHARS:])
    found: dict[tuple[str, str, str], Match] = {}
    # Most lines of a log hold no known message: one search for any anchor
    # tells, instead of trying every pattern on every line.
    anchored = [km for km in table if km.anchor]
    always = [km for km in table if not km.anchor]
    prefilter = re.compile("|".join(sorted({re.escape(km.anchor) for km in anchored}, key=len, reverse=True)))
    after_frame = False
    # Lines as an editor or `grep -n` counts them: str.splitlines would also
    # break at \x0c, \x1c-\x1e, U+2028... that a message may hold.
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if after_frame:
            after_frame = False
            continue
        if _TRACEBACK_FRAME.match(line):
            after_frame = True
            continue
        line = line[:MAX_LINE_CHARS]
        candidates = (anchored + always) if anchored and prefilter.search(line) else always
        for km in candidates:
            m = km.search(line)
            if m is not None:
                matched = line[m.start():m.end()].strip()
                found.pop((km.kind, km.key, matched), None)  # keep the last, in order
                found[(km.kind, km.key, matched)] = Match(km, n, matched)
    # Matches on one line, or on lines next to each other, are one message:
    # "argument --x: 1 validation error for XConfig" and pydantic's "Value
    # error, ..." below it are one error.
    by_line: dict[int, Explanation] = {}
    for match in sorted(found.values(), key=lambda m: m.line):
        ex = by_line.get(match.line) or by_line.get(match.line - 1)
        if ex is None:
            ex = Explanation(match.line, match.text, end_line=match.line)
        elif match.line > ex.end_line:
            ex.text = f"{ex.text}\n{match.text}"
        elif len(match.text) > len(ex.text.rsplit("\n", 1)[-1]) and ex.line == ex.end_line:
            ex.text = match.text
        ex.end_line = max(ex.end_line, match.line)
        by_line[match.line] = ex
        known = ex.rules if match.message.kind == "rule" else ex.records
        if match.message not in known:
            known.append(match.message)
    explanations = list({id(ex): ex for ex in by_line.values()}.values())
    for ex in explanations:
        ex.rules.sort(key=lambda km: -km.specificity)
        ex.records.sort(key=lambda km: -km.specificity)
        if ex.rules:
            # A rule whose pattern is mostly holes (`argument {x}: {problem}`)
            # gives way to a far more specific one on the same message.
            best = ex.rules[0].specificity
            ex.rules = [km for km in ex.rules if km.specificity * 3 >= best]
    return sorted(explanations, key=lambda ex: ex.line)


# vLLM's start-up banner (0.28.0+: "[startup.py:38] ... version 0.33.0") and
# the older "vLLM API server version 0.25.0" line name the release.
_LOG_RELEASE = re.compile(r"(?:\bversion|vLLM API server version) v?(\d+\.\d+\.\d+)\b")


def release_in_log(text: str) -> str | None:
    """The vLLM release a log says it is, when servelint knows it."""
    for m in _LOG_RELEASE.finditer(text[:200_000]):
        try:
            return knowledge.canonical_version(m.group(1))
        except knowledge.UnknownRelease:
            continue
    return None


# -- what to say about a match ------------------------------------------------------------

_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w.-]*")
_IDENT = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def describe(ex: Explanation, store, version: str | None = None) -> dict:
    """An explanation as JSON-ready data (also what the text output
    prints); ``store`` is the RecordStore the records came from."""
    from .rules import lookup

    rules = []
    for km in ex.rules:
        cls = lookup(km.key)
        doc = cls.doc()
        rules.append({
            "code": cls.code,
            "name": cls.name,
            "summary": cls.summary(),
            "releases": list(km.releases),
            # A rule's releases are among those whose source was scanned
            # for vLLM's checks: runs are counted over those.
            "releases_text": releases_text(km.releases, _judged_releases(km.releases)),
            "applies_to_release": None if version is None else version in km.releases,
            "meaning": _section(doc, "Why"),
            "fix": _section(doc, "Fix"),
            "example": _section(doc, "Example"),
            "vllm_message": km.template,
            "docs": f"https://github.com/servelint/servelint/blob/main/docs/rules.md#{cls.name}",
        })
    records = []
    for km in ex.records:
        lr = store.get(km.key)
        if lr is None:
            continue
        rec = lr.record
        records.append({
            "id": km.key,
            "slug": rec.slug,
            "message": rec.errorMessage,
            "documentation": rec.documentation,
            "trigger_scenarios": rec.triggerScenarios,
            "solutions": list(rec.solutions or []),
            "example_fix": rec.exampleFix,
            "source": rec.githubUrl or rec.filePath,
        })
    return {
        "line": ex.line,
        "end_line": ex.end_line,
        "message": ex.text,
        "rules": rules,
        "records": records,
        "flags": flags_in(ex, version),
    }


def _section(doc: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    return m.group(1).strip() if m else ""


def releases_text(releases: Iterable[str], over: Iterable[str] | None = None) -> str:
    """``0.25.0-0.33.0``, ``0.25.0-0.27.1, 0.29.0``: runs of known releases
    (of ``over``, when given: the releases a question can be asked of)."""
    known = list(knowledge.RELEASES if over is None else over)
    have = [v for v in known if v in set(releases)]
    if not have:
        return "no release servelint knows"
    runs: list[list[str]] = []
    for v in have:
        if runs and known.index(v) == known.index(runs[-1][-1]) + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _judged_releases(releases: Iterable[str]) -> list[str]:
    from .knowledge import validators

    scanned = validators.scanned_releases()
    releases = set(releases)
    return [v for v in knowledge.RELEASES if v in releases or v in scanned]


def flags_in(ex: Explanation, version: str | None = None) -> list[dict]:
    """The flags the message names (``--x``, and config fields such as
    ``max_num_batched_tokens`` that are a flag's dest), and the rules'
    anchors: each with the releases that accept it."""
    from .rules import lookup

    newest = knowledge.load(version or knowledge.NEWEST)
    names: list[str] = []
    for m in _FLAG.finditer(ex.text):
        s = m.group(0).rstrip(".,;:)'\"")
        if s.startswith("--"):
            names.append(knowledge.normalise_string(s))
    for m in _IDENT.finditer(ex.text):
        opt = newest.by_dest.get(m.group(0))
        if opt is not None:
            names.append(opt.name)
    for km in ex.rules:
        cls = lookup(km.key)
        for s in (cls.anchor, *cls.partners):
            if s:
                names.append(s)
    out = []
    for name in dict.fromkeys(names):
        have = knowledge.history.releases_with(name)
        entry: dict = {"flag": name, "releases": releases_text(have) if have else None}
        if not have:
            close = difflib.get_close_matches(name, newest.long_strings, n=3, cutoff=0.72)
            entry["note"] = "no release servelint knows has it" + (f"; did you mean {' or '.join(close)}?" if close else "")
        elif version is not None and version not in have:
            entry["note"] = f"not in vLLM {version}"
        else:
            kn = knowledge.load(version if version in have else have[-1])
            opt = kn.by_string.get(name)
            if opt is not None and name in (opt.negative or ()):
                entry["help"] = f"turns off {opt.name}"
            elif opt is not None and opt.help:
                entry["help"] = _first_sentence(opt.help)
        out.append(entry)
    return out


def _first_sentence(text: str, limit: int = 160) -> str:
    text = " ".join(text.replace("%%", "%").split("\n\n", 1)[0].split())
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    text = m.group(1) if m else text
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


# -- the `servelint explain` command ----------------------------------------------------


def command(args) -> int:
    """``servelint explain TEXT|-``: 0 when something was explained, 1 when
    nothing matched, 2 on a usage error."""
    from .records import RecordStore

    if args.vllm_version:
        try:
            args.vllm_version = knowledge.canonical_version(args.vllm_version)
        except knowledge.UnknownRelease as exc:
            print(f"servelint: {exc}", file=sys.stderr)
            return 2
    if args.text == ["-"]:
        text = _read_tail(sys.stdin, MAX_INPUT_CHARS)
    else:
        text = " ".join(args.text)
    version = args.vllm_version or release_in_log(text)
    store = RecordStore.load(args.records)
    for problem in store.problems:
        print(f"servelint: records: {problem}", file=sys.stderr)
    table = _record_messages(store) + list(_rule_messages())
    found = [describe(ex, store, version) for ex in explain(text, table)]
    if args.format == "json":
        out = {"servelint": __version__, "vllm_version": version, "explanations": found}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(found, version))
    return 0 if found else 1


def _read_tail(stream, limit: int) -> str:
    """The last ``limit`` characters of a stream (a log ends with its error),
    read in chunks: a log of any length costs ``limit`` of memory."""
    kept: list[str] = []
    size = 0
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        kept.append(chunk)
        size += len(chunk)
        while kept and size - len(kept[0]) >= limit:
            size -= len(kept.pop(0))
    return "".join(kept)[-limit:]


def render_text(found: list[dict], version: str | None = None) -> str:
    if not found:
        return "servelint knows no vLLM error message in this text.\n"
    out: list[str] = []
    for i, ex in enumerate(found):
        if i:
            out.append("")
        first, *rest = ex["message"].split("\n")
        out.append(f"line {ex['line']}: {first}")
        out.extend(f"    {line}" for line in rest)
        for r in ex["rules"]:
            out.append(f"  {r['code']} {r['name']}: {r['summary']}")
            when = f"vLLM {r['releases_text']}"
            if r["applies_to_release"] is False:
                when += f" (not {version})"
            out.append(f"    releases: {when}")
            if r["meaning"]:
                out.extend(_block("why", r["meaning"]))
            if r["fix"]:
                out.extend(_block("fix", r["fix"]))
            out.append(f"    more: servelint rule {r['code']}")
        for rec in ex["records"]:
            out.append(f"  record {rec['id']}" + (f" ({rec['slug']})" if rec["slug"] else ""))
            if rec["documentation"]:
                out.extend(_block("means", rec["documentation"]))
            for s in rec["solutions"]:
                out.extend(_block("solution", s))
            if rec["example_fix"]:
                out.extend(_block("example fix", rec["example_fix"], wrap=False))
        if ex["flags"]:
            out.append("  flags to look at:")
            for f in ex["flags"]:
                where = f"vLLM {f['releases']}" if f["releases"] else ""
                extra = f.get("note") or f.get("help") or ""
                out.append("    " + " ".join(p for p in (f["flag"], f"({where})" if where else "", extra) if p))
    return "\n".join(out) + "\n"


def _block(label: str, text: str, wrap: bool = True) -> list[str]:
    """``label: text`` under a match, continued lines indented.  Docstring
    sections keep their lines; one long line (a record's field) is wrapped."""
    import textwrap

    lines = text.strip().splitlines() or [""]
    if wrap and len(lines) == 1 and len(lines[0]) > 90:
        lines = textwrap.wrap(lines[0], 80)
    return [f"    {label}: {lines[0]}"] + [f"      {line}" if line.strip() else "" for line in lines[1:]]
