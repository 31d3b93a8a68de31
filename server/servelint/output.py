"""Printing diagnostics: text, JSON, SARIF 2.1.0 and GitHub annotations.

The JSON object is a contract other tools rely on (documented in the README):
its keys only grow.  Ranges are LSP ranges (0-based, UTF-16 columns), so the
same object can be published by the language server; SARIF regions are
1-based with UTF-16 columns, SARIF's default column kind.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Callable, Iterable, TextIO

from . import __version__
from .diagnostics import Diagnostic, Severity
from .text import SourceText

DOCS_URL = "https://github.com/servelint/servelint/blob/main/docs/rules.md#{name}"

SourceOf = Callable[[str], SourceText]


def doc_url(name: str) -> str:
    return DOCS_URL.format(name=name)


def to_json(diags: Iterable[Diagnostic], source_of: SourceOf) -> dict:
    return {"servelint": __version__, "diagnostics": [d.to_json(source_of) for d in diags]}


# Every writer builds its whole output and writes it once: under
# PYTHONUNBUFFERED (CI runners often set it) each write is a system call, and
# json.dump writes once per token (38,000 writes for the bench's 1,000 files).


def write_json(out: TextIO, diags: list[Diagnostic], source_of: SourceOf) -> None:
    out.write(json.dumps(to_json(diags, source_of), indent=2, ensure_ascii=False) + "\n")


_COLORS = {
    Severity.ERROR: "\033[31m",
    Severity.WARNING: "\033[33m",
    Severity.INFORMATION: "\033[36m",
    Severity.HINT: "\033[2m",
}


def write_text(out: TextIO, diags: list[Diagnostic], source_of: SourceOf, *, color: bool | None = None) -> None:
    if color is None:
        color = out.isatty() and "NO_COLOR" not in os.environ
    bold, reset = ("\033[1m", "\033[0m") if color else ("", "")
    parts: list[str] = []
    write = parts.append
    for d in diags:
        src = source_of(d.path)
        line, col = src.position(d.span.start)
        sev = d.severity.label
        if color:
            sev = f"{_COLORS[d.severity]}{sev}{reset}"
        version = f" (vLLM {d.vllm_version})" if d.vllm_version else ""
        write(f"{bold}{d.path}:{line + 1}:{col + 1}{reset}: {sev}: {d.message} [{d.code} {d.name}]{version}\n")
        if line < src.line_count:
            text = src.line_text(line)
            if len(text) <= 300:
                _, end_col = src.position(min(d.span.end, src.line_end(line)))
                width = max(1, end_col - col)
                gutter = " " * len(str(line + 1))
                write(f" {gutter} |\n {line + 1} | {text}\n {gutter} | {' ' * col}^{'~' * (width - 1)}\n")
        for r in d.related:
            rsrc = source_of(r.path)
            rl, rc = rsrc.position(r.span.start)
            write(f"    {r.path}:{rl + 1}:{rc + 1}: note: {r.message}\n")
        for f in d.fixes:
            safety = "fix" if f.safe else "unsafe fix"
            write(f"    = {safety}: {f.title}\n")
    if diags:
        counts = {s: sum(1 for d in diags if d.severity == s) for s in Severity}
        kinds = [f"{n} {s.label}{'s' if n != 1 and s != Severity.INFORMATION else ''}" for s, n in counts.items() if n]
        write(f"Found {len(diags)} problem{'s' if len(diags) != 1 else ''} ({', '.join(kinds)}).\n")
    out.write("".join(parts))


def _escape_gh(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def write_github(out: TextIO, diags: list[Diagnostic], source_of: SourceOf) -> None:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    lines: list[str] = []
    for d in diags:
        r = source_of(d.path).range(d.span)
        props = ",".join(
            [
                f"file={_escape_gh(d.path, True)}",
                f"line={r['start']['line'] + 1}",
                f"col={r['start']['character'] + 1}",
                f"endLine={r['end']['line'] + 1}",
                f"endColumn={r['end']['character'] + 1}",
                f"title={_escape_gh(d.code + ' ' + d.name, True)}",
            ]
        )
        lines.append(f"::{level.get(d.severity, 'notice')} {props}::{_escape_gh(d.message)}\n")
    out.write("".join(lines))


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


def _region(src: SourceText, span) -> dict:
    r = src.range(span)
    return {
        "startLine": r["start"]["line"] + 1,
        "startColumn": r["start"]["character"] + 1,
        "endLine": r["end"]["line"] + 1,
        "endColumn": r["end"]["character"] + 1,
    }


def _uri(path: str) -> str:
    return path.replace(os.sep, "/")


def to_sarif(diags: list[Diagnostic], source_of: SourceOf) -> dict:
    from .rules import rule_classes

    classes = {cls.code: cls for cls in rule_classes()}
    used = sorted({d.code for d in diags})
    rules = []
    index = {}
    for code in used:
        cls = classes.get(code)
        name = cls.name if cls else next(d.name for d in diags if d.code == code)
        entry = {"id": code, "name": name, "helpUri": doc_url(name)}
        if cls is not None:
            entry["shortDescription"] = {"text": cls.summary()}
            entry["help"] = {"text": cls.doc(), "markdown": cls.doc()}
            entry["defaultConfiguration"] = {"level": _SARIF_LEVEL[cls.severity]}
        index[code] = len(rules)
        rules.append(entry)
    results = []
    for d in diags:
        src = source_of(d.path)
        res: dict = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": _uri(d.path)}, "region": _region(src, d.span)}}
            ],
            "properties": {"name": d.name, "category": d.category, "vllmVersion": d.vllm_version,
                           "flag": d.flag, "record": d.record},
        }
        if d.related:
            res["relatedLocations"] = [
                {
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": {"artifactLocation": {"uri": _uri(r.path)}, "region": _region(source_of(r.path), r.span)},
                }
                for i, r in enumerate(d.related)
            ]
        if d.fixes:
            res["fixes"] = [
                {
                    "description": {"text": f.title},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": _uri(e.path)},
                            "replacements": [
                                {"deletedRegion": _region(source_of(e.path), e.span), "insertedContent": {"text": e.new_text}}
                            ],
                        }
                        for e in f.edits
                    ],
                }
                for f in d.fixes
            ]
        results.append(res)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "servelint",
                        "version": __version__,
                        "informationUri": "https://github.com/servelint/servelint",
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def write_sarif(out: TextIO, diags: list[Diagnostic], source_of: SourceOf) -> None:
    out.write(json.dumps(to_sarif(diags, source_of), indent=2, ensure_ascii=False) + "\n")


WRITERS = {"text": write_text, "json": write_json, "sarif": write_sarif, "github": write_github}


def stdout() -> TextIO:
    return sys.stdout
