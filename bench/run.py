"""servelint benchmarks: ``python bench/run.py [--quick] [--only NAME ...]``.

Measurements (names for ``--only``):

  verdict     time to a verdict vs vLLM's own parse + validation (the oracle)
  latency     keystroke → diagnostics, 2,000-line script and 5,000-line manifest
  scaling     the same keystroke on 1k / 10k / 100k lines
  throughput  ``servelint check`` over 1,000 files vs yamllint and shellcheck
  coldstart   ``servelint check one-file.sh``; server start → first diagnostics
  memory      server RSS with 100 open documents
  profile     where the time goes (keystroke, cold start)

Results: bench/out/results.json (everything) and bench/out/report.md (the
tables RESULTS.md quotes).  Inputs come from bench/gen.py (seeded).  Nothing
here asserts on time; goals are printed next to the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import OUT, fmt_ms, machine, say, write_json  # noqa: E402

LATENCY_FILES = ["shell-2000", "k8s-5000", "shell-2000-errors", "k8s-list-300-errors"]
NAMES = ["verdict", "latency", "scaling", "throughput", "coldstart", "memory", "profile"]


def lsp_status() -> str | None:
    """None when ``servelint lsp`` answers ``initialize``; else why not."""
    from lspclient import answers

    return asyncio.run(answers(tempfile.mkdtemp(prefix="servelint-bench-probe-")))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="servelint benchmarks", formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--quick", action="store_true", help="a short run (fewer edits and repetitions, no 100k lines)")
    p.add_argument("--only", action="append", choices=NAMES, metavar="NAME",
                   help=f"run only this measurement (repeatable): {', '.join(NAMES)}")
    p.add_argument("--edits", type=int, help="keystrokes per latency cell (default 1000, --quick 50)")
    p.add_argument("--file", action="append", choices=LATENCY_FILES, metavar="FILE",
                   help=f"latency: only this file (repeatable): {', '.join(LATENCY_FILES)}")
    args = p.parse_args(argv)
    # pygls logs a warning for the probe's orderly shutdown; it is not news.
    logging.getLogger("pygls").setLevel(logging.ERROR)
    chosen = args.only or NAMES
    command = "python bench/run.py" + (" --quick" if args.quick else "") + "".join(f" --only {n}" for n in args.only or [])
    if args.edits:
        command += f" --edits {args.edits}"
    command += "".join(f" --file {f}" for f in args.file or [])

    results: dict = {"command": command, "machine": machine(), "quick": args.quick}
    why_no_lsp = None
    if any(n in chosen for n in ("latency", "scaling", "coldstart", "memory", "profile")):
        why_no_lsp = lsp_status()
        if why_no_lsp:
            say(f"`servelint lsp` does not answer ({why_no_lsp}): LSP cells are skipped, the engine is measured in-process")
    results["lsp"] = "answers" if why_no_lsp is None else f"skipped: {why_no_lsp}"
    lsp_ok = why_no_lsp is None

    started = time.perf_counter()
    for name in chosen:
        t0 = time.perf_counter()
        say(f"== {name}")
        if name == "verdict":
            import verdict

            results[name] = verdict.measure(args.quick)
        elif name == "latency":
            import edits

            results[name] = edits.measure_latency(args.quick, lsp_ok, args.edits, args.file)
        elif name == "scaling":
            import edits

            results[name] = edits.measure_scaling(args.quick, lsp_ok)
        elif name == "throughput":
            import throughput

            results[name] = throughput.measure(args.quick)
        elif name == "coldstart":
            import coldstart

            results[name] = coldstart.measure(args.quick, lsp_ok)
        elif name == "memory":
            if lsp_ok:
                import memory

                results[name] = memory.measure(args.quick)
            else:
                results[name] = {"skipped": why_no_lsp}
        elif name == "profile":
            import profiles

            results[name] = profiles.measure(args.quick)
        say(f"   {name} took {time.perf_counter() - t0:.0f} s")
        # Each measurement saved as it finishes: a long run interrupted late
        # keeps what it measured.
        write_json(f"results-{name}.json", {"command": command, "machine": results["machine"], name: results[name]})
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    results["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    path = write_json("results.json", results)
    report = render(results)
    with open(os.path.join(OUT, "report.md"), "w") as fh:
        fh.write(report)
    print(report)
    say(f"wrote {path} and {os.path.join(OUT, 'report.md')}")
    return 0


# -- the report ------------------------------------------------------------------

def _ms(cell: dict | None, key: str = "median_ms") -> str:
    if not cell or key not in cell:
        return "–"
    return fmt_ms(cell[key])


def render(r: dict) -> str:
    m = r["machine"]
    out = [f"# servelint benchmark report\n",
           f"`{r['command']}` — {m['date']}, git {m['git']}\n",
           f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, Python {m['python']}; "
           f"load average {m['loadavg']} at start, {m.get('loadavg_end')} at end "
           f"(PYTHONDONTWRITEBYTECODE={m['PYTHONDONTWRITEBYTECODE']}). LSP: {r['lsp']}.\n"]
    if "verdict" in r:
        v = r["verdict"]
        out.append("## 1. Time to verdict vs vLLM (oracle)\n")
        if v.get("oracle_skipped"):
            out.append(f"Oracle side skipped: {v['oracle_skipped']}\n")
        out.append("| case | release | servelint warm | oracle warm (batch, per case) | × warm | servelint cold (as-is / installed) | oracle cold | × cold (installed) | × cold CPU (installed) |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        for c in v["cases"]:
            out.append(f"| {c['case']} | {c['version']} | {_ms(c['servelint_warm'])} | {_ms(c.get('oracle_warm'))} | "
                       f"{c.get('speedup_warm', '–')} | {_ms((c.get('servelint_cold[as-is]') or {}).get('wall'))} / "
                       f"{_ms((c.get('servelint_cold[installed]') or {}).get('wall'))} | "
                       f"{_ms((c.get('oracle_cold') or {}).get('wall'))} | {c.get('speedup_cold[installed]', '–')} | "
                       f"{c.get('speedup_cold[installed, cpu]', '–')} |")
        out.append(f"\nMedian speed-ups: {v.get('median_speedups')}\n")
        out.append("| case | vLLM's verdict (oracle) | servelint's findings |")
        out.append("|---|---|---|")
        for c in v["cases"]:
            out.append(f"| {c['case']} | {c.get('oracle_verdict', '–')} | {'; '.join(c['servelint_verdict']) or 'none'} |")
        out.append("")
    if "latency" in r:
        lat = r["latency"]
        out.append("## 2. Keystroke → diagnostics\n")
        out.append(f"{lat['edits']} single-character edits per cell (first {lat['warmup_edits_dropped']} dropped); "
                   f"server debounce {lat['debounce_ms']} ms.\n")
        out.append("LSP rows: p50 / p99 when the client has structured the answer (cattrs); in brackets, "
                   "when its JSON was parsed (what an editor has in hand), then when its last byte was read "
                   "(the server's answer, before the client does anything with it).\n")
        out.append("| file | path | p50 | p99 | CPU p50 | rule / launch evals per edit |")
        out.append("|---|---|---|---|---|---|")
        for fname, cells in lat["files"].items():
            for key, c in cells.items():
                if "wall" in c:
                    out.append(f"| {fname} | {key} | {_ms(c['wall'], 'p50_ms')} | {_ms(c['wall'], 'p99_ms')} | "
                               f"{_ms(c['cpu'], 'p50_ms')} | {c['rule_evaluations_per_edit']['mean']} / "
                               f"{c['launch_evaluations_per_edit']['mean']} |")
                else:
                    dec, rec = c.get("latency_decoded"), c.get("latency_received")
                    out.append(f"| {fname} | {key} | {_ms(c['latency'], 'p50_ms')} "
                               f"({_ms(dec, 'p50_ms')}; {_ms(rec, 'p50_ms')}) | "
                               f"{_ms(c['latency'], 'p99_ms')} ({_ms(dec, 'p99_ms')}; {_ms(rec, 'p99_ms')}) | "
                               f"server {fmt_ms(c['server_cpu_per_edit_ms'])}/edit | "
                               f"{c.get('diagnostics', '–')} diagnostics, missed {c['missed']} |")
        out.append("")
    if "scaling" in r:
        s = r["scaling"]
        out.append("## 3. Scaling\n")
        out.append(f"Up to {s['max_edits']} edits or {s['budget_s_per_cell']} s per cell; each cell in a child process "
                   f"capped at {s.get('memory_cap_mb')} MB of address space and {s.get('timeout_s_per_cell')} s.\n")
        out.append("| file | path | edits | p50 | p99 | CPU p50 | rule / launch evals per edit | peak RSS |")
        out.append("|---|---|---|---|---|---|---|---|")
        for cname, cell in s["cells"].items():
            for key, c in cell.items():
                if "failed" in c:
                    out.append(f"| {cname} | {key} | – | – | – | – | failed: {c['failed']} | – |")
                    continue
                w = c.get("wall") or c.get("latency")
                cpu = _ms(c["cpu"], "p50_ms") if "cpu" in c else f"server {fmt_ms(c['server_cpu_per_edit_ms'])}/edit"
                ev = (f"{c['rule_evaluations_per_edit']['mean']} / {c['launch_evaluations_per_edit']['mean']}"
                      if "rule_evaluations_per_edit" in c else "–")
                rss = c.get("peak_rss_mb") or c.get("server_peak_rss_mb")
                out.append(f"| {cname} | {key} | {w['n']} | {_ms(w, 'p50_ms')} | {_ms(w, 'p99_ms')} | {cpu} | {ev} | {rss} MB |")
        out.append(f"\nRatios (goal ≤ 1.5): {s.get('ratios')}\n")
    if "throughput" in r:
        t = r["throughput"]
        out.append("## 4. Throughput\n")
        out.append(f"Repository: {t['repository']}; servelint install: {t['servelint_install']}. "
                   f"Skipped: {t['skipped'] or 'nothing'}.\n")
        out.append("| run | files | wall | CPU | files/s |")
        out.append("|---|---|---|---|---|")
        for name, row in t["runs"].items():
            out.append(f"| {name} | {row['files']} | {_ms(row['wall'])} | {_ms(row['cpu'])} | {row['files_per_s']} |")
        out.append(f"\nRatios (goal ≥ 10 vs yamllint): {json.dumps(t['ratios'])}\n")
    if "coldstart" in r:
        c = r["coldstart"]
        out.append("## 5. Cold start\n")
        out.append(f"One {c['file_lines']}-line script. Byte code in the tree: {c['tree_has_bytecode']}.\n")
        out.append("| install | `check one-file.sh` | its CPU | bare `python -c pass` | server: initialize | server: start → first diagnostics | server CPU until then |")
        out.append("|---|---|---|---|---|---|---|")
        for name, row in c["modes"].items():
            out.append(f"| {name} | {_ms(row['check_one_file'])} | {_ms(row['check_one_file_cpu'])} | "
                       f"{_ms(row['bare_python_start'])} | {_ms(row['server_initialize'])} | "
                       f"{_ms(row['server_start_to_first_diagnostics'])} | {_ms(row.get('server_cpu_until_first_diagnostics'))} |")
        out.append("")
    if "memory" in r:
        out.append("## 6. Memory\n")
        out.append("| workspace | documents | lines | RSS after initialize | RSS with all open | peak |")
        out.append("|---|---|---|---|---|---|")
        for name, row in r["memory"].items():
            if isinstance(row, dict) and "rss_mb" in row:
                out.append(f"| {name} | {row['documents']} | {row['lines']} | {row['rss_after_initialize_mb']} MB | "
                           f"{row['rss_mb']} MB | {row['peak_rss_mb']} MB |")
        out.append("")
    if "profile" in r:
        out.append("## Profiles\n")
        for name, prof in r["profile"].items():
            if name == "cold-start":
                continue
            if "by_self_time" not in prof:
                out.append(f"- {name}: {prof}")
                continue
            out.append(f"### {name}\n")
            out.append("| self time | share | inclusive | share |")
            out.append("|---|---|---|---|")
            for a, b in zip(prof["by_self_time"][:12], prof["by_inclusive_time"][:12]):
                out.append(f"| {a['function']} | {a['share']:.0%} | {b['function']} | {b['share']:.0%} |")
            out.append("")
        cold = r["profile"].get("cold-start", {})
        for key, val in cold.items():
            if key.startswith("importtime"):
                out.append(f"### {key}: wall {val['wall_ms']} ms, imports {val['imports_self_total_ms']} ms\n")
                out.append("Self time by top-level package: " + ", ".join(f"{k} {v} ms" for k, v in val["self_ms_by_top_package"].items()))
                out.append("")
            elif key.startswith("import_lsp_server_ms"):
                out.append(f"- {key}: {val} ms")
        out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
