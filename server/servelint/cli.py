"""The command line: ``servelint check`` for CI, ``servelint lsp`` for editors.

Exit status of ``check``: 0 when nothing at or above ``--fail-on`` was found,
1 when something was, 2 on usage or I/O errors.  Imports stay lazy: a cold
``servelint check one-file.sh`` must not pay for the language server.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Iterator

from . import __version__

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache",
             ".pytest_cache", ".ruff_cache", "site-packages", ".venv", "venv", ".hypothesis"}


def _is_virtualenv(path: str) -> bool:
    return os.path.exists(os.path.join(path, "pyvenv.cfg"))


def walk(paths: list[str]) -> Iterator[str]:
    """Files to check, in a stable order; directories are walked."""
    from .parse import kind_of

    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs if d not in SKIP_DIRS and not _is_virtualenv(os.path.join(root, d))
                )
                for name in sorted(files):
                    full = os.path.join(root, name)
                    # Only regular files: opening a FIFO found in the tree would block forever.
                    if os.path.isfile(full) and kind_of(full, _head(full)) is not None:
                        yield full
        else:
            yield path


def _head(path: str) -> str:
    """The start of a file, enough to see a shebang."""
    try:
        with open(path, "rb") as fh:
            return fh.read(128).decode("utf-8", "replace")
    except OSError:
        return ""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="servelint", description="Lint vLLM launch configurations.")
    p.add_argument("--version", action="version", version=f"servelint {__version__}")
    sub = p.add_subparsers(dest="command")

    c = sub.add_parser("check", help="check files and directories")
    c.add_argument("paths", nargs="*", default=["."], help="files or directories ('-' reads stdin)")
    c.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    c.add_argument("--vllm-version", metavar="X.Y.Z", help="the vLLM release when a file names none")
    c.add_argument("--target", choices=("cuda", "rocm", "cpu", "tpu", "xpu"), help="the platform vLLM runs on (default cuda)")
    c.add_argument("--fail-on", choices=("error", "warning", "information", "hint", "never"), default="error")
    c.add_argument("--stdin-filename", metavar="NAME", help="the file name to report for '-'")
    c.add_argument("--records", action="append", default=[], metavar="PATH", help="extra error records (file or folder)")
    c.add_argument("--disable", action="append", default=[], metavar="RULE", help="turn a rule off (name or code)")
    c.add_argument("--fix", action="store_true", help="apply safe fixes to the files")
    c.add_argument("--diff", action="store_true", help="show the safe fixes as a diff, change nothing")
    c.add_argument("--no-config", action="store_true", help="ignore .servelint.toml / [tool.servelint]")

    lsp = sub.add_parser("lsp", help="run the language server")
    mode = lsp.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    mode.add_argument("--tcp", action="store_true", help="listen on TCP (debugging)")
    mode.add_argument("--ws", action="store_true", help="listen on WebSocket (debugging)")
    lsp.add_argument("--host", default="127.0.0.1")
    lsp.add_argument("--port", type=int, default=2087)

    r = sub.add_parser("rules", help="list the rules")
    r.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    e = sub.add_parser("rule", help="show a rule's documentation")
    e.add_argument("name", help="rule name or code")
    return p


# Start-up allocates tens of thousands of objects that live as long as the
# process (classes, functions, a release's flag table; lsprotocol's types for
# the server) and almost no garbage, yet every 700 allocations trigger a
# collection that walks them: 10-25% of a cold start.  ``main`` pauses the
# collector until they are in (the first file checked, the server imported).
_paused = False


def _started(freeze: bool = False) -> None:
    """Collection back on after start-up; ``freeze`` (the server, a process
    of its own) also moves the start-up objects out of the collector's sight
    for good, so its later collections are cheaper too.  The price: cyclic
    garbage left by the imports is frozen with them, ~9 MB of the server's
    RSS, for ~70-300 ms less CPU before its first diagnostics (measured in
    bench/RESULTS.md, sections 5 and 6)."""
    global _paused
    if _paused:
        _paused = False
        if freeze:
            gc.freeze()
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True
    try:
        return _main(argv)
    finally:
        _started()


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        return check(args)
    if args.command == "lsp":
        from .lsp.server import run

        _started(freeze=True)
        return run(mode="tcp" if args.tcp else "ws" if args.ws else "stdio", host=args.host, port=args.port)
    _started()
    if args.command == "rules":
        return list_rules(args.format)
    if args.command == "rule":
        return show_rule(args.name)
    _parser().print_help()
    return 2


def check(args) -> int:
    from .diagnostics import Severity
    from .engine import MAX_DOCUMENT_CHARS, Engine, too_large
    from .output import WRITERS
    from .settings import Settings, for_file
    from .text import SourceText

    base = Settings(
        vllm_version=args.vllm_version,
        target=args.target or "cuda",
        records=tuple(args.records),
        disable=frozenset(args.disable),
    )
    engine = Engine(base, incremental=False)
    MAX_BYTES = 4 * MAX_DOCUMENT_CHARS
    diags = []
    sources: dict[str, SourceText] = {}
    status = 0
    paths = args.paths or ["."]
    for path in paths:
        if path != "-" and not os.path.exists(path):
            print(f"servelint: {path}: no such file or directory", file=sys.stderr)
            status = 2
    files = [p for p in paths if p == "-"] + list(walk([p for p in paths if p != "-" and os.path.exists(p)]))
    # YAML files last: a --config file then knows the release of the launch
    # that names it (the output is sorted by path anyway).
    files.sort(key=lambda f: f != "-" and f.lower().endswith((".yaml", ".yml")))
    for path in files:
        if path == "-":
            name = args.stdin_filename or "-"
            text = sys.stdin.read()
        else:
            name = path
            try:
                with open(path, "rb") as fh:
                    # Never more than a file under the limit can hold (4 bytes a
                    # character): a 50 GB log or /dev/zero costs no time or memory.
                    size = os.fstat(fh.fileno()).st_size
                    raw = b"" if size > MAX_BYTES else fh.read(MAX_BYTES + 1)
            except OSError as exc:
                print(f"servelint: {path}: {exc.strerror or exc}", file=sys.stderr)
                status = 2
                continue
            if size > MAX_BYTES or len(raw) > MAX_BYTES:
                diags.append(too_large(name, f"{size:,} bytes" if size > MAX_BYTES else f"over {MAX_BYTES:,} bytes"))
                sources[name] = SourceText("")  # the writers must not read it either
                continue
            text = raw.decode("utf-8", "replace")
        settings = base if args.no_config else for_file(os.path.abspath(name) if name != "-" else os.getcwd(), base)
        result = engine.lint(name, text, settings=settings)
        sources.update(result.sources)
        sources[name] = result.source
        _started()  # after the first file: the rules, parsers and tables are loaded
        diags.extend(engine.checked(result))

    def source_of(p: str) -> SourceText:
        src = sources.get(p)
        if src is None:
            try:
                with open(p, encoding="utf-8", errors="replace") as fh:
                    src = SourceText(fh.read())
            except OSError:
                src = SourceText("")
            sources[p] = src
        return src

    _started()
    if args.fix or args.diff:
        from .fixes.apply import apply_to_files

        diags, fix_status = apply_to_files(diags, source_of, write=args.fix, out=sys.stdout)
        status = max(status, fix_status)

    # Each diagnostic once, even when a --config file is checked through two launches.
    seen = set()
    unique = []
    for d in sorted(diags, key=lambda d: d.sort_key()):
        key = (d.path, d.span, d.code, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    WRITERS[args.format](sys.stdout, unique, source_of)
    if status == 2:
        return 2
    if args.fail_on != "never":
        limit = Severity.parse(args.fail_on)
        if any(d.severity <= limit for d in unique):
            return 1
    return 0


def list_rules(fmt: str) -> int:
    import json

    from .rules import rule_classes

    classes = rule_classes()
    if fmt == "json":
        json.dump(
            [{"code": c.code, "name": c.name, "category": c.category, "severity": c.severity.label,
              "summary": c.summary(), "since": c.since, "until": c.until} for c in classes],
            sys.stdout, indent=2,
        )
        sys.stdout.write("\n")
    elif fmt == "markdown":
        from .docs import rules_markdown

        sys.stdout.write(rules_markdown())
    else:
        for c in classes:
            print(f"{c.code}  {c.name:<40} {c.severity.label:<12} {c.summary()}")
    return 0


def show_rule(key: str) -> int:
    from .rules import lookup

    cls = lookup(key)
    if cls is None:
        print(f"servelint: no rule named {key!r} (see `servelint rules`)", file=sys.stderr)
        return 2
    print(f"# {cls.code} {cls.name}\n")
    print(cls.doc())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
