"""The command line: ``servelint check`` for CI, ``servelint lsp`` for editors.

Exit status of ``check``: 0 when nothing at or above ``--fail-on`` was found,
1 when something was, 2 on usage or I/O errors.  Imports stay lazy: a cold
``servelint check one-file.sh`` must not pay for the language server (nor
for multiprocessing: ``-j N`` starts workers only for many files, and its
output is the serial one byte for byte; see ``_lint_in_workers``).
"""

from __future__ import annotations

import gc
import os
import sys
from types import SimpleNamespace

from . import __version__

_TARGETS = ("cuda", "rocm", "cpu", "tpu", "xpu")

# The options of `check`, read both by argparse and by ``_quick_args``:
# (option strings, dest, kind, argparse keywords).  kind: "value" (one
# value), "append", "flag" (store_true), "jobs" (a number from 1) or
# "count" (a number from 0).
_CHECK_OPTIONS = (
    (("--format",), "format", "value", dict(choices=("text", "json", "sarif", "github"), default="text")),
    (("--vllm-version",), "vllm_version", "value",
     dict(metavar="X.Y.Z", help="the vLLM release when a file names none")),
    (("--target",), "target", "value",
     dict(choices=_TARGETS, help="the platform vLLM runs on (default cuda)")),
    (("--fail-on",), "fail_on", "value", dict(choices=("error", "warning", "information", "hint", "never"), default="error")),
    (("--stdin-filename",), "stdin_filename", "value", dict(metavar="NAME", help="the file name to report for '-'")),
    (("--records",), "records", "append",
     dict(action="append", default=[], metavar="PATH", help="extra error records (file or folder)")),
    (("--disable",), "disable", "append",
     dict(action="append", default=[], metavar="RULE", help="turn a rule off (name or code)")),
    (("--fix",), "fix", "flag", dict(action="store_true", help="apply safe fixes to the files")),
    (("--diff",), "diff", "flag", dict(action="store_true", help="show the safe fixes as a diff, change nothing")),
    (("--no-config",), "no_config", "flag", dict(action="store_true", help="ignore .servelint.toml / [tool.servelint]")),
    (("--max-launches",), "max_launches", "count",
     dict(metavar="N", help="check at most N launches per file (default 1000; 0: all)")),
    (("-j", "--jobs"), "jobs", "jobs",
     dict(metavar="N", help="lint in N processes (default: the CPUs available; 1: in this process only)")),
    (("--show-launches",), "show_launches", "flag",
     dict(action="store_true", help="print the launches found (entry point, release, where each flag "
                                   "comes from) instead of the problems; text, or JSON with --format json")),
)


def _parser() -> "argparse.ArgumentParser":
    import argparse

    p = argparse.ArgumentParser(prog="servelint", description="Lint vLLM launch configurations.")
    p.add_argument("--version", action="version", version=f"servelint {__version__}")
    sub = p.add_subparsers(dest="command")

    c = sub.add_parser("check", help="check files and directories")
    c.add_argument("paths", nargs="*", default=["."], help="files or directories ('-' reads stdin)")
    for strings, _dest, kind, kw in _CHECK_OPTIONS:
        c.add_argument(*strings, **({**kw, "type": _NUMBERS[kind]} if kind in _NUMBERS else kw))

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

    sc = sub.add_parser("schema", help="print the JSON Schema of vLLM --config files (docs/schema.md)")
    sc.add_argument("--vllm-version", metavar="X.Y.Z", help="the release (default: the newest servelint knows)")
    sc.add_argument("--target", choices=_TARGETS, default="cuda", help="the platform vLLM runs on (default cuda)")
    sc.add_argument("--indent", dest="compact", action="store_false", help="indented JSON instead of one line")
    sc.add_argument("--output-dir", metavar="DIR", help="write every release's schema (and latest.json) to DIR")
    sc.add_argument("--catalog", action="store_true", help="print the SchemaStore catalog entry")

    ex = sub.add_parser("explain", help="explain a vLLM error message, or every one in a log")
    ex.add_argument("text", nargs="+", help="the message, or '-' to read a message or a whole log from stdin")
    ex.add_argument("--format", choices=("text", "json"), default="text")
    ex.add_argument("--vllm-version", metavar="X.Y.Z", help="the release that printed it (marks what it raises)")
    ex.add_argument("--records", action="append", default=[], metavar="PATH", help="extra error records (file or folder)")
    return p


def _quick_args(argv: list[str]) -> "SimpleNamespace | None":
    """The arguments of the command lines editors and CI actually run,
    ``check [PATH...] [--format json] ...`` and ``lsp [--stdio]``, as
    ``parse_args`` would set them, without argparse: importing it and
    building the parser cost ~8 ms of a cold ``check one-file.sh`` (goal:
    150 ms in all).  Only exact option strings, a value in its own word or
    after ``=``, and one run of paths; anything else (abbreviations, ``-j4``,
    ``--``, help, a value starting with ``-``, an invalid choice, paths on
    both sides of an option) returns None and goes to argparse, which reads
    it or explains the error.  tests/cli/test_coldstart_argv.py checks that
    both read the same."""
    if argv == ["lsp"] or argv == ["lsp", "--stdio"]:
        return SimpleNamespace(command="lsp", stdio=len(argv) == 2, tcp=False, ws=False, host="127.0.0.1", port=2087)
    if not argv or argv[0] != "check":
        return None
    options = {s: spec for spec in _CHECK_OPTIONS for s in spec[0]}
    values: dict = {}
    for _strings, dest, kind, kw in _CHECK_OPTIONS:
        values[dest] = [] if kind == "append" else False if kind == "flag" else kw.get("default")
    paths: list[str] = []
    run = 0  # 0: no path yet, 1: in the run of paths, 2: after it
    i = 1
    while i < len(argv):
        word = argv[i]
        i += 1
        if word[:1] != "-" or word == "-":
            if run == 2:
                return None  # argparse reads one run of paths only
            run = 1
            paths.append(word)
            continue
        if run == 1:
            run = 2
        name, eq, value = word.partition("=")
        spec = options.get(name)
        if spec is None or (eq and not name.startswith("--")):
            return None
        _strings, dest, kind, kw = spec
        if kind == "flag":
            if eq:
                return None
            values[dest] = True
            continue
        if not eq:
            if i >= len(argv) or argv[i][:1] == "-":
                return None
            value = argv[i]
            i += 1
        if "choices" in kw and value not in kw["choices"]:
            return None
        if kind == "append":
            values[dest].append(value)
        elif kind in _NUMBERS:
            if not (value.isascii() and value.isdigit()) or int(value) < (kind == "jobs"):
                return None
            values[dest] = int(value)
        else:
            values[dest] = value
    return SimpleNamespace(command="check", paths=paths or ["."], **values)


# Start-up allocates tens of thousands of objects that live as long as the
# process (classes, functions, a release's flag table; lsprotocol's types for
# the server) and almost no garbage, yet every 700 allocations trigger a
# collection that walks them: 10-25% of a cold start.  ``main`` pauses the
# collector until they are in (the first file checked, the server imported).
_paused = False
# main() reading the process's own command line (argv None): the process
# ends when main returns.
_own_process = False


def _started(freeze: bool = False) -> None:
    """Collection back on after start-up.  In a process of its own (the
    server, ``servelint check``), the start-up objects are also frozen: out
    of the collector's sight for good, so later collections are cheaper, and
    so is the full one the interpreter runs at exit (together ~40M of the
    ~500M instructions of a ``check one-file.sh``).  The price: cyclic garbage left by start-up is
    frozen with them, ~9 MB of the server's RSS, for ~70-300 ms less CPU
    before its first diagnostics (measured in bench/RESULTS.md, sections 5
    and 6).  In-process callers (tests, the profiler) freeze nothing."""
    global _paused
    if _paused:
        _paused = False
        if freeze or _own_process:
            gc.freeze()
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    global _paused, _own_process
    _own_process = argv is None
    if gc.isenabled():
        gc.disable()
        _paused = True
    try:
        return _main(argv)
    finally:
        _started()


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _quick_args(argv) or _parser().parse_args(argv)
    if args.command == "check":
        if _own_process:
            # Parsing a repository allocates millions of short-lived objects
            # and frees nearly all of them by reference counting; collecting
            # the youngest generation every 700 allocations spent ~4% of a
            # check of the 555 bench YAML files (valgrind) finding nothing.
            gc.set_threshold(20_000, *gc.get_threshold()[1:])
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
    if args.command == "schema":
        from . import schema

        return schema.command(args)
    if args.command == "explain":
        from . import explain

        return explain.command(args)
    _parser().print_help()
    return 2


def _default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask, as under
    ``taskset`` or a container's cpuset), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _jobs(value: str) -> int:
    import argparse

    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more (got {value!r})")
    return n


def _count(value: str) -> int:
    import argparse

    if not (value.isascii() and value.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a number, 0 or more (got {value!r})")
    return int(value)


_NUMBERS = {"jobs": _jobs, "count": _count}


# Below this many files per worker process a pool costs more than it saves:
# importing multiprocessing and each worker's first use of the parsers and
# rules cost ~0.1-0.15 s of CPU (16 files: 0.40 s serial, 0.50 s with two
# workers, here), a file 5-10 ms.  Fewer files are linted in this process,
# and ``check one-file.sh`` never imports multiprocessing at all.
_FILES_PER_WORKER = 16


def _is_yaml(path: str) -> bool:
    return path != "-" and path.lower().endswith((".yaml", ".yml"))


def check(args) -> int:
    from .diagnostics import Severity
    from .engine import Engine
    from .files import walk
    from .output import WRITERS
    from .settings import Settings
    from .text import SourceText

    base = Settings(
        vllm_version=args.vllm_version,
        target=args.target or "cuda",
        records=tuple(args.records),
        disable=frozenset(args.disable),
        **({} if args.max_launches is None else {"max_launches": args.max_launches}),
    )
    engine = Engine(base, incremental=False)
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
    files.sort(key=_is_yaml)
    if getattr(args, "show_launches", False):
        return _show_launches(engine, base, args, files, status)

    def take(error: str | None, found: list, srcs: dict) -> None:
        nonlocal status
        if error is not None:
            print(error, file=sys.stderr)
            status = 2
            return
        sources.update(srcs)
        diags.extend(found)

    jobs = min(args.jobs or _default_jobs(), len(files) // _FILES_PER_WORKER)
    if jobs < 2:
        for path in files:
            take(*_lint_path(engine, base, args, path))
    else:
        _lint_in_workers(engine, base, args, files, jobs, take)

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

    # Each diagnostic once, even when a --config file is checked through two
    # launches (or a chart's values file through its template and itself),
    # however its path was spelled.
    seen = set()
    unique = []
    for d in sorted(diags, key=lambda d: d.sort_key()):
        key = (os.path.normpath(os.path.abspath(d.path)), d.span, d.code, d.message)
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


def _show_launches(engine, base, args, files: list[str], status: int) -> int:
    """``check --show-launches``: each file's launches as servelint reads them."""
    from .output import launch_reports, write_launches

    reports = []
    for path in files:
        error, _, _ = _lint_path(engine, base, args, path, keep=reports)
        if error is not None:
            print(error, file=sys.stderr)
            status = 2
    reports.sort(key=lambda r: r[0])
    write_launches(sys.stdout, [(p, launch_reports(r)) for p, r in reports],
                   "json" if args.format == "json" else "text")
    return status


def _lint_path(engine, base, args, path: str, keep: list | None = None) -> tuple:
    """Read and lint one file: ``(error, diagnostics, sources)``, where
    ``error`` is the line for stderr when the file cannot be read and
    ``sources`` the texts the diagnostics were made from, by path."""
    from .engine import MAX_DOCUMENT_CHARS, too_large
    from .settings import for_file
    from .text import SourceText

    max_bytes = 4 * MAX_DOCUMENT_CHARS
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
                raw = b"" if size > max_bytes else fh.read(max_bytes + 1)
        except OSError as exc:
            return f"servelint: {path}: {exc.strerror or exc}", [], {}
        if size > max_bytes or len(raw) > max_bytes:
            found = [too_large(name, f"{size:,} bytes" if size > max_bytes else f"over {max_bytes:,} bytes")]
            return None, found, {name: SourceText("")}  # the writers must not read it either
        text = raw.decode("utf-8", "replace")
    if args.no_config:
        settings = base
    else:
        # The project config is the nearest one above the file's directory:
        # looked up once per directory (a stat per name and level each time).
        where = os.path.dirname(os.path.abspath(name)) if name != "-" else os.getcwd()
        settings = _settings_by_dir.get(where)
        if settings is None:
            settings = _settings_by_dir[where] = for_file(where, base)
    result = engine.lint(name, text, settings=settings)
    if keep is not None:
        keep.append((name, result))
        return None, [], {}
    srcs = dict(result.sources)
    srcs[name] = result.source
    _started()  # after the first file: the rules, parsers and tables are loaded
    # Fixes are verified (a re-lint each) only when something shows or
    # applies them: GitHub annotations carry none.
    shown = args.fix or args.diff or args.format != "github"
    return None, engine.checked(result) if shown else result.diagnostics, srcs


_settings_by_dir: dict = {}


# -- check -j N: files linted in worker processes ---------------------------------
#
# The output is the serial one, byte for byte.  Each worker lints a chunk of
# files in order and returns, per file, what the serial loop would have added
# (diagnostics with their verified fixes, the texts they point into, the
# error line for an unreadable file); this process takes them in file order,
# then applies --fix/--diff, sorts and writes as before.
#
# The one state carried from file to file is ``engine.config_releases``: a
# launch naming ``--config x.yaml`` records its release and entry point (a
# ``ConfigUse``), and x.yaml, linted
# later, inherits it.  Files are sent in two phases (the non-YAML files, then
# the YAML files, as the serial order has them), each with the releases
# learned by all earlier phases.  A worker records every entry a file's lint
# read (with the value it saw) and wrote; taking the files in order, this
# process keeps the serial state, and a file that read a value differing from
# it (an x.yaml named by a YAML launch earlier in the order, in another
# chunk) is linted again here, with the serial state.  So the result never
# depends on how files were split.


class _Recorded(dict):
    """``engine.config_releases`` in a worker: remembers what each file's
    lint read and wrote.  Any other use marks the file for a serial re-lint."""

    def start(self) -> None:
        self.reads: list = []
        self.writes: list = []
        self.wild = False

    def get(self, key, default=None):
        value = super().get(key, default)
        self.reads.append((key, super().get(key)))
        return value

    def __getitem__(self, key):
        self.reads.append((key, super().get(key)))
        return super().__getitem__(key)

    def __contains__(self, key):
        self.reads.append((key, super().get(key)))
        return super().__contains__(key)

    def __setitem__(self, key, value):
        self.writes.append((key, value))
        super().__setitem__(key, value)


def _marks_wild(name: str):
    def method(self, *a, **kw):
        self.wild = True
        return getattr(dict, name)(self, *a, **kw)
    return method


for _name in ("setdefault", "pop", "popitem", "update", "clear", "keys", "values", "items", "copy",
              "__iter__", "__delitem__", "__len__", "__ior__", "__or__", "__eq__"):
    setattr(_Recorded, _name, _marks_wild(_name))
del _name


_worker = None  # (args, base settings, engine) in a worker process


def _init_worker(args, base) -> None:
    global _worker
    import signal

    from .engine import Engine

    # Ctrl-C is this process's to handle: it stops the pool, the workers go
    # quietly instead of each printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    _worker = (args, base, Engine(base, incremental=False))


def _lint_chunk(task: tuple) -> list:
    paths, known = task
    args, base, engine = _worker
    state = engine.config_releases = _Recorded(known)
    out = []
    for path in paths:
        state.start()
        error, found, srcs = _lint_path(engine, base, args, path)
        # Only the texts the output and the fixes will look at travel back.
        wanted = set()
        for d in found:
            wanted.add(d.path)
            wanted.update(r.path for r in d.related)
            wanted.update(e.path for fx in d.fixes for e in fx.edits)
        texts = {p: s.text for p, s in srcs.items() if p in wanted}
        out.append((path, error, found, texts, state.reads, state.writes, state.wild))
    return out


def _lint_in_workers(engine, base, args, files: list[str], jobs: int, take) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from .text import SourceText

    # fork: the workers start with this process's modules and tables loaded,
    # at no cost.  Only on Linux (macOS' system libraries are not fork-safe);
    # the executor forks all its workers before it starts its own thread.
    method = "fork" if sys.platform == "linux" else "spawn"
    ctx = multiprocessing.get_context(method)
    state = engine.config_releases
    # The first file here: it loads the rules, parsers and tables the forked
    # workers then share (and stdin, '-', is always first).
    take(*_lint_path(engine, base, args, files[0]))
    rest = files[1:]
    split = next((i for i, f in enumerate(rest) if _is_yaml(f)), len(rest))
    phases = [p for p in (rest[:split], rest[split:]) if p]
    if method == "fork":
        gc.freeze()  # the workers' collections need not walk what they inherit
    # An executor, not a multiprocessing.Pool: a worker killed (out of memory)
    # ends the run with an error instead of a wait that never ends.
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker, initargs=(args, base))
    try:
        for phase in phases:
            size = max(2, min(32, len(phase) // (jobs * 12) or 1))
            known = dict(state)
            tasks = [(phase[i:i + size], known) for i in range(0, len(phase), size)]
            for chunk in pool.map(_lint_chunk, tasks):
                for path, error, found, texts, reads, writes, wild in chunk:
                    if wild or any(state.get(k) != v for k, v in reads):
                        take(*_lint_path(engine, base, args, path))  # with the serial state
                        continue
                    for k, v in writes:
                        state[k] = v
                    take(error, found, {p: SourceText(t) for p, t in texts.items()})
    except BrokenProcessPool as exc:
        print(f"servelint: a worker process ended abruptly ({exc}); try again with -j 1", file=sys.stderr)
        raise SystemExit(2) from None
    finally:
        # Ctrl-C or an error: drop the chunks not started rather than wait for them.
        pool.shutdown(wait=True, cancel_futures=True)


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
