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
    from .rules import lookup

    used = sorted({d.code for d in diags})
    classes = {code: lookup(code) for code in used}
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


# -- check --show-launches: what servelint read, launch by launch ----------------


def launch_reports(result) -> list[dict]:
    """Each launch of a lint result (``engine.LintResult``): how it starts,
    the release it is checked against and why, and where each flag comes
    from.  Ranges are LSP ranges, as in the diagnostics."""
    from .parse.dump import describe_launch

    src = result.source
    out = []
    for lr in result.launches:
        launch = lr.launch
        item = describe_launch(src, launch)
        item["release"] = {"version": lr.release.version, "reason": lr.release.reason}
        inv = lr.invocation
        if inv is not None:
            item["model"] = _model_report(src, inv)
            item["flags"] = [_flag_report(src, f) for f in inv.flags]
        deployment = _deployment_report(src, launch)
        if deployment:
            item["deployment"] = deployment
        out.append(item)
    return out


def _fact_report(src: SourceText, fact) -> dict:
    item: dict = {"value": fact.value, "from": fact.said, "range": src.range(fact.span)}
    if fact.value is None:
        item["unknown"] = fact.note or "not known from the file"
    return item


def _deployment_report(src: SourceText, launch) -> dict:
    """Where the launch runs as servelint read it: the GPUs (with what the
    GPU table knows of their kind), /dev/shm, nodes, ports; {} when the
    file says nothing of it."""
    from .derive.deployment import CONTAINER_SHM_DEFAULT, VISIBLE_DEVICES
    from .knowledge import gpus as gpu_table

    own, linked = launch.deployment, launch.linked
    dep = own.over(linked) if own is not None else linked
    out: dict = {}
    if dep is not None:
        out["runtime"] = dep.runtime
        gpus = []
        for req in dep.gpus:
            g: dict = {}
            if req.count is not None:
                g["count"] = _fact_report(src, req.count)
            if req.kind is not None:
                g["type"] = _fact_report(src, req.kind)
                if isinstance(req.kind.value, str):
                    m = gpu_table.lookup(req.kind.value, req.vocabulary)
                    if m.known:
                        g["gpu"] = {"ids": [x.id for x in m.gpus], "capability": m.capability_text(),
                                    "memory_gib": m.memory_gib(), "vendor": m.vendor()}
            if req.memory_gib is not None:
                g["memory"] = _fact_report(src, req.memory_gib)
            if req.vendor:
                g["vendor"] = req.vendor
            gpus.append(g)
        if gpus:
            out["gpus"] = gpus
        if dep.shm is not None:
            out["shm"] = _fact_report(src, dep.shm)
        elif dep.runtime == "container":
            out["shm"] = {"value": CONTAINER_SHM_DEFAULT, "from": "the container runtime's default"}
        if dep.nodes is not None:
            out["nodes"] = _fact_report(src, dep.nodes)
        if dep.ports:
            out["ports"] = [{"number": p.number, "name": p.name, "role": p.role, "from": p.said,
                             "range": src.range(p.span)} for p in dep.ports]
    for name in VISIBLE_DEVICES:
        var = launch.env.get(name)
        if var is not None:
            out["visible_devices"] = {"name": name, "value": var.value if var.exact else None}
            break
    return out


def deployment_lines(report: dict) -> list[str]:
    """The deployment part of a launch report, for people: one line each
    for its GPUs, /dev/shm, nodes and ports."""
    dep = report.get("deployment")
    if not dep:
        return []
    lines = []
    for g in dep.get("gpus", []):
        count, kind, gpu = g.get("count"), g.get("type"), g.get("gpu")
        if gpu:
            facts = [f"compute capability {gpu['capability']}"] if gpu.get("capability") else []
            facts.append(f"{gpu['memory_gib']:g} GiB")
            what = f"{' or '.join(gpu['ids'])} ({', '.join(facts)})"
        elif kind is not None:
            what = f"{kind['value'] or 'a GPU'} (not in servelint's GPU table)"
        else:
            what = "of a kind the file does not name"
        if g.get("memory") and g["memory"]["value"]:
            what += f", {g['memory']['value']:g} GiB each"
        if count is None:
            n = "how many not said,"
        elif count["value"] is None:
            n = f"{count.get('unknown') or 'how many not known'},"
        elif gpu or kind is not None:
            n = f"{count['value']} ×"
        else:
            n = f"{count['value']} GPU{'s' if count['value'] != 1 else ''},"
        said = [x["from"] for x in (count, kind) if x]
        lines.append(f"GPUs: {n} {what}" + (f" — {'; '.join(dict.fromkeys(said))}" if said else ""))
    if "visible_devices" in dep:
        v = dep["visible_devices"]
        lines.append(f"{v['name']}={v['value'] if v['value'] is not None else '(set at run time)'}")
    shm = dep.get("shm")
    if shm:
        if shm["value"] == "host":
            lines.append(f"/dev/shm: the host's — {shm['from']}")
        elif shm["value"] is None:
            lines.append(f"/dev/shm: unknown ({shm.get('unknown', '')}) — {shm['from']}")
        else:
            lines.append(f"/dev/shm: {shm['value'] / (1 << 20):g} MiB — {shm['from']}")
    if dep.get("nodes"):
        nodes = dep["nodes"]
        lines.append(f"nodes: {nodes['value'] if nodes['value'] is not None else 'unknown'} — {nodes['from']}")
    ports = dep.get("ports")
    if ports:
        shown = [f"{p['from']}: {p['number'] if p['number'] is not None else p['name'] or 'not known'}"
                 for p in ports if p["role"] != "sidecar"]
        if shown:
            lines.append("ports: " + ", ".join(shown))
    if not lines and dep.get("runtime") not in (None, "unknown"):
        lines.append(f"runs in a {dep['runtime']}; the file names no GPUs")
    return lines


def _model_report(src: SourceText, inv) -> dict:
    model = {"name": inv.model_name, "from": inv.model_source}
    if inv.model is not None:
        model["range"] = src.range(inv.model.span) if inv.model.path is None else None
        if not inv.model.exact:
            model["unknown"] = inv.model.note or "known only at run time"
    return model


def _flag_report(src: SourceText, flag) -> dict:
    """One flag and its source: written in the file, in a --config file, or
    added by the form (a chart, an operator), with its values."""
    word = flag.word
    item: dict = {"flag": flag.canonical or flag.written, "written": flag.written}
    if flag.values:
        item["values"] = [v.text for v in flag.values]
    if flag.source == "config" or (word is not None and word.path is not None):
        item["from"] = "config-file"
        if word is not None and word.path:
            item["file"] = word.path
    elif word is not None and word.note and word.exact:
        item["from"] = "added"
        item["note"] = word.note
    else:
        item["from"] = "file"
    if word is not None and word.path is None:
        item["range"] = src.range(flag.name_span)
    unknown = [w.note or "known only at run time" for w in ([word] if word else []) + list(flag.values)
               if not w.exact]
    if unknown:
        item["unknown"] = unknown[0]
    if flag.option is None:
        item["not_a_flag_of_this_release"] = True
    return item


def write_launches(out: TextIO, reports: list[tuple[str, list[dict]]], fmt: str = "text") -> None:
    """The ``--show-launches`` report: JSON, or text for people."""
    if fmt == "json":
        body = {"servelint": __version__, "files": [{"path": p, "launches": l} for p, l in reports]}
        out.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
        return
    lines: list[str] = []
    for path, launches in reports:
        lines.append(f"{path}: {len(launches)} launch{'es' if len(launches) != 1 else ''}")
        for k, item in enumerate(launches, 1):
            at = _line_col(item["entry_range"])
            head = f"  {k}. {at} {item['entry']} ({item['form']})"
            if item.get("image"):
                head += f", image {item['image']}"
            lines.append(head)
            rel = item.get("release")
            if rel:
                lines.append(f"     release {rel['version']}: {rel['reason']}")
            if item.get("entry_unknown"):
                lines.append(f"     entry point unknown: {item['entry_unknown']}")
            if item.get("build"):
                lines.append(f"     built from {item['build']['dockerfile']}")
            model = item.get("model")
            if model:
                where = f" at {_line_col(model['range'])}" if model.get("range") else ""
                note = f" (unknown: {model['unknown']})" if model.get("unknown") else ""
                lines.append(f"     model {model['name']} ({model['from']}{where}){note}")
            for f in item.get("flags", []):
                value = " " + " ".join(f["values"]) if f.get("values") else ""
                if f["from"] == "config-file" and f.get("file"):
                    source = "from the config file " + f["file"]
                elif f["from"] == "config-file":
                    # A config file this file writes itself (a heredoc).
                    where = f", written at {_line_col(f['range'])}" if f.get("range") else ""
                    source = "from the config file this file writes" + where
                elif f["from"] == "added":
                    source = f["note"]
                else:
                    source = "written at " + _line_col(f["range"])
                extra = f"; unknown: {f['unknown']}" if f.get("unknown") else ""
                lines.append(f"     {f['written']}{value}  ({source}{extra})")
            for line in deployment_lines(item):
                lines.append(f"     {line}")
            for inp in item.get("inputs", []):
                guard = inp.get("guard")
                said = f", guarded at {_line_col(guard['range'])} ({guard['kind']})" if guard else ""
                lines.append(f"     input ${inp['name']}: set by whoever runs the file{said}")
            for w in item.get("opaque", []):
                lines.append(f"     may hide flags: {w['text'] or '(nothing written)'} ({w.get('note', '')})")
            for p in item.get("problems", []):
                lines.append(f"     problem at {_line_col(p['range'])}: {p['message']}")
    out.write("\n".join(lines) + ("\n" if lines else ""))


def _line_col(rng) -> str:
    """``L:C`` (1-based) of an LSP range or a dump range ``"l:c-l:c"``."""
    if isinstance(rng, str):
        line, col = rng.split("-")[0].split(":")
        return f"{int(line) + 1}:{int(col) + 1}"
    return f"{rng['start']['line'] + 1}:{rng['start']['character'] + 1}"
