"""Print how servelint does on the real-world corpus.

    .venv/bin/python tests/realworld/score.py [--list]

* precision: of the errors and warnings servelint reports, the share the
  truth (expected.yaml) holds;
* recall: of the errors and warnings the truth holds, the share servelint
  reports;
* launches seen: of the launches the truth lists, the share servelint finds
  (with the right entry point);

overall and per form (the corpus folder a file is in).  `--list` also prints
every disagreement.  It runs servelint exactly as test_realworld.py does.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402


def _form(path: str) -> str:
    return path.split("/", 1)[0]


def _ratio(a: int, b: int) -> str:
    return f"{a}/{b} = {100.0 * a / b:5.1f}%" if b else f"{a}/{b} =   n/a "


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print every disagreement")
    args = ap.parse_args()

    cmp = compare.compare()
    forms = sorted({_form(p) for p in compare.load_truth()["files"]})
    stat = defaultdict(lambda: defaultdict(int))
    for e in cmp.expected:
        stat[_form(e.path)]["expected"] += 1
        if e.key in cmp.matched:
            stat[_form(e.path)]["recalled"] += 1
    matched_found = {id(f) for f in cmp.matched.values()}
    unexpected = {id(f) for f in cmp.unexpected}
    for f in cmp.found:
        # A finding that is neither matched nor unexpected repeats an expected
        # one that names no code: it is right, but only the first one counts.
        if id(f) in matched_found or id(f) in unexpected:
            stat[_form(f.path)]["reported"] += 1
            if id(f) in matched_found:
                stat[_form(f.path)]["correct"] += 1
    wrong = {w.key for w, _ in cmp.wrong_entry}
    for w in cmp.launches:
        stat[_form(w.path)]["launches"] += 1
        if w.key in cmp.launch_of and w.key not in wrong:
            stat[_form(w.path)]["seen"] += 1

    def line(name: str, s) -> str:
        return (f"{name:16} precision {_ratio(s['correct'], s['reported']):18}  "
                f"recall {_ratio(s['recalled'], s['expected']):18}  "
                f"launches seen {_ratio(s['seen'], s['launches'])}")

    total = defaultdict(int)
    for form in forms:
        for k, v in stat[form].items():
            total[k] += v
    print(f"servelint on tests/realworld: {len(compare.load_truth()['files'])} files, "
          f"{total['expected']} expected errors and warnings, {total['launches']} launches")
    print(line("overall", total))
    for sev in compare.SEVERITIES:
        s = defaultdict(int)
        s["expected"] = sum(e.severity == sev for e in cmp.expected)
        s["recalled"] = sum(e.severity == sev and e.key in cmp.matched for e in cmp.expected)
        s["reported"] = sum(f.severity == sev and (id(f) in matched_found or id(f) in unexpected) for f in cmp.found)
        s["correct"] = sum(f.severity == sev and id(f) in matched_found for f in cmp.found)
        print(f"  {sev + 's':14} precision {_ratio(s['correct'], s['reported']):18}  recall {_ratio(s['recalled'], s['expected'])}")
    for form in forms:
        print(line(form, stat[form]))
    if args.list:
        print()
        for kind, key, what in compare.disagreements(cmp):
            print(f"{kind:12} {key:60} {what[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
