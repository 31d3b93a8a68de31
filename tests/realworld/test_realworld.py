"""servelint on real-world launch files, held to vLLM's own verdicts.

The corpus (files/) is launch files written in the shapes of public
repositories; expected.yaml holds, per file, the launches a user expects to
be found and every error and warning vLLM confirms (oracle_check.py re-checks
that truth against vLLM itself).  servelint is run once, as a subprocess, on
the whole corpus, and every expected finding, every expected launch and every
error or warning servelint reports is a test case:

* an expected finding servelint does not report fails;
* an error or warning servelint reports that the truth does not hold fails;
* an expected launch servelint does not see (or sees with another entry
  point) fails;

except the disagreements listed in KNOWN.md, which are expected to fail and
must keep failing (strict): when servelint starts to agree, the test says so
and the row has to go.  The list can only shrink.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402

TRUTH = compare.load_truth()
EXPECTED, LAUNCHES = compare.expectations(TRUTH)
KNOWN = {(k.kind, k.key): k for k in compare.load_known()}


@pytest.fixture(scope="module")
def result() -> compare.Comparison:
    return compare.compare(TRUTH)


def _known(kind: str, key: str):
    row = KNOWN.get((kind, key))
    if row is None:
        return []
    return [pytest.mark.xfail(strict=True, reason=f"KNOWN.md ({row.item}): {row.what}")]


# ------------------------------------------------------------ the truth itself

def test_every_corpus_file_has_a_truth():
    on_disk = {p.relative_to(compare.FILES).as_posix() for p in compare.FILES.rglob("*") if p.is_file()}
    assert sorted(on_disk - set(TRUTH["files"])) == [], "files without an entry in expected.yaml"
    assert sorted(set(TRUTH["files"]) - on_disk) == [], "expected.yaml names files that do not exist"


def _flag_word(flag: str) -> str:
    return re.sub(r"[-_]", "", flag.lstrip("-").split("=", 1)[0].split(".", 1)[0]).lower()


def test_truth_lines_point_at_the_file():
    """A line number that drifted from its file would make every test about it meaningless."""
    problems = []
    for path, entry in TRUTH["files"].items():
        lines = (compare.FILES / path).read_text(encoding="utf-8").splitlines()
        for f in entry.get("findings") or []:
            where = f"{path}:{f['line']}"
            if not 1 <= f["line"] <= len(lines):
                problems.append(f"{where}: line out of range")
                continue
            text = lines[f["line"] - 1]
            # `at`: the text a finding about a JSON key points at (the key,
            # not the flag that holds it).
            if f.get("at") and f["at"] not in text:
                problems.append(f"{where}: {f['at']!r} is not on that line")
            elif not f.get("at") and f.get("flag") and _flag_word(f["flag"]) not in re.sub(r"[-_]", "", text).lower():
                problems.append(f"{where}: {f['flag']} is not on that line")
    for launch in LAUNCHES:
        lines = (compare.FILES / launch.path).read_text(encoding="utf-8").splitlines()
        if not 1 <= launch.line <= len(lines) or not lines[launch.line - 1].strip():
            problems.append(f"{launch.key}: not a line of the launch")
    assert problems == []


def test_known_rows_are_disagreements_of_the_truth():
    """Every KNOWN.md row names an expectation of expected.yaml (or, for
    `unexpected`, a place in a corpus file), so a typo cannot silence a test."""
    expected = {e.key for e in EXPECTED}
    launches = {w.key for w in LAUNCHES}
    bad = []
    for (kind, key), row in KNOWN.items():
        if kind in ("missing", "message") and key not in expected:
            bad.append(f"{kind} {key}: no such expected finding")
        elif kind in ("not-seen", "wrong-entry") and key not in launches:
            bad.append(f"{kind} {key}: no such expected launch")
        elif kind == "unexpected" and key.split(":", 1)[0] not in TRUTH["files"]:
            bad.append(f"unexpected {key}: no such corpus file")
        elif kind == "category" and not re.fullmatch(r"SL\d{3}", key):
            bad.append(f"category {key}: not a rule code")
        elif kind not in ("missing", "unexpected", "message", "not-seen", "wrong-entry", "category"):
            bad.append(f"{kind} {key}: unknown kind")
    assert bad == []


# --------------------------------------------------------- servelint vs truth

@pytest.mark.parametrize(
    "expected", [pytest.param(e, id=e.key, marks=_known("missing", e.key)) for e in EXPECTED],
)
def test_expected_finding_is_reported(result, expected):
    assert expected.key in result.matched, (
        f"servelint does not report {expected.severity} {expected.code or expected.flag or ''} "
        f"at {expected.path}:{expected.line} ({expected.about}); "
        f"it reports there: {[f.code + ' ' + f.message for f in result.found if f.path == expected.path and f.line == expected.line]}"
    )


@pytest.mark.parametrize(
    "launch", [pytest.param(w, id=w.key, marks=_known("not-seen", w.key)) for w in LAUNCHES],
)
def test_expected_launch_is_seen(result, launch):
    assert launch.key in result.launch_of, f"servelint sees no launch at {launch.key} ({launch.entry})"


@pytest.mark.parametrize(
    "launch",
    [pytest.param(w, id=w.key, marks=_known("wrong-entry", w.key)) for w in LAUNCHES],
)
def test_launch_entry_point(result, launch):
    seen = result.launch_of.get(launch.key)
    if seen is None:
        pytest.skip("not seen (test_expected_launch_is_seen)")
    assert compare.entry_ok(launch.entry, seen.entry), f"{launch.key}: {launch.entry}, servelint says {seen.entry}"


UNEXPECTED_KNOWN = sorted(key for kind, key in KNOWN if kind == "unexpected")


@pytest.mark.parametrize(
    "key", [pytest.param(k, id=k, marks=_known("unexpected", k)) for k in UNEXPECTED_KNOWN],
)
def test_known_wrong_finding_is_gone(result, key):
    assert key not in {f.key for f in result.unexpected}, f"servelint still reports {key}"


def test_no_other_wrong_finding(result):
    new = [f"{f.key} {f.flag or ''}: {f.message}" for f in result.unexpected
           if ("unexpected", f.key) not in KNOWN]
    assert new == [], "errors or warnings the truth does not hold (fix servelint, or the truth with oracle evidence)"


def _finding_rules():
    """(expected key, `message` regex or None, `not_message` regex or None)."""
    out = []
    for path, entry in TRUTH["files"].items():
        for f in entry.get("findings") or []:
            if f["severity"] in compare.SEVERITIES and (f.get("message") or f.get("not_message")):
                e = compare.Expected(path, int(f["line"]), f["severity"], f.get("code"), f.get("flag"), "")
                out.append((e.key, f.get("message"), f.get("not_message")))
    return out


@pytest.mark.parametrize(
    "key,says,not_says",
    [pytest.param(*r, id=r[0], marks=_known("message", r[0])) for r in _finding_rules()],
)
def test_finding_message(result, key, says, not_says):
    """What a finding says matters where vLLM's history decides it: a removed
    flag is reported as removed (and where it went), not as a typo of an
    unrelated flag (issue 16 items 6 and 7)."""
    found = result.matched.get(key)
    if found is None:
        pytest.skip("not reported (test_expected_finding_is_reported)")
    if says:
        assert re.search(says, found.message), f"{key}: {found.message!r} does not say /{says}/"
    if not_says:
        assert not re.search(not_says, found.message), f"{key}: {found.message!r} says /{not_says}/"


# The `category` values of servelint's JSON contract (README, "The JSON output").
CATEGORIES = {"unknown-flag", "invalid-value", "duplicate-flag", "deprecated", "incompatible", "parse-error", "config",
              "deployment"}


def test_categories_are_in_the_json_contract(result):
    bad = {d["code"]: d.get("category") for d in result.report
           if d.get("category") not in CATEGORIES and ("category", d["code"]) not in KNOWN}
    assert bad == {}, "categories outside the JSON contract"


@pytest.mark.parametrize(
    "code", [pytest.param(key, id=key, marks=_known("category", key)) for kind, key in sorted(KNOWN) if kind == "category"],
)
def test_known_category_is_fixed(result, code):
    assert all(d.get("category") in CATEGORIES for d in result.report if d["code"] == code), f"{code}: still outside the contract"
