"""`servelint explain` as a subprocess, on what vLLM really prints.

Two kinds of input:

* whole logs of real `vllm serve` runs that stop at a bad launch
  (vllm_logs/, captured by vllm_logs/capture.sh from the vLLM releases the
  oracle installs): banner, INFO lines, argparse's usage and ``error:``
  line, tracebacks whose lines carry vLLM's ``(APIServer pid=N)`` prefix,
  pydantic's ``1 validation error for VllmConfig / Value error, ... [type=``;
* every error message of the conformance verdicts (tests/conformance/verdicts,
  vLLM's own messages for 551 launches x 10 releases), wrapped the way vLLM
  surfaces each exception: argparse's own ``error()`` for parse errors,
  pydantic's own ValidationError for config validation, Python's own
  traceback for the rest, all in one log.  What explain must name is the
  rule servelint reports on the launch that produced the message.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LOGS = HERE / "vllm_logs"
CONFORMANCE = HERE.parent / "conformance"


def explain_json(cli, text: str, *args: str) -> tuple[dict, object]:
    proc = cli("explain", "--format", "json", *args, "-", stdin=text)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout), proc


# The logs were recorded by the vLLM oracle, whose own VLLM_ORACLE_* variables
# vLLM warns about at start ("Unknown vLLM environment variable detected"):
# SL721 explains those lines; the tests look at the error after them.
ORACLE_ENV = "Unknown vLLM environment variable detected: VLLM_ORACLE_"


def errors_of(out: dict) -> list[dict]:
    return [ex for ex in out["explanations"] if not ex["message"].startswith(ORACLE_ENV)]


def codes(ex: dict) -> list[str]:
    return [r["code"] for r in ex["rules"]]


# -- real logs ------------------------------------------------------------------------


def test_a_traceback_of_a_config_validation_error(cli):
    log = (LOGS / "tp3-0.33.0.log").read_text()
    out, proc = explain_json(cli, log)
    assert proc.returncode == 0
    assert out["vllm_version"] == "0.33.0"  # from the log's banner
    [ex] = errors_of(out)
    # The pydantic line, not the traceback's code lines above it.
    assert log.splitlines()[ex["line"] - 1].lstrip().startswith("Value error, Total number of attention heads")
    assert ex["message"] == "Total number of attention heads (32) must be divisible by tensor parallel size (3)."
    [rule] = ex["rules"]
    assert rule["code"] == "SL301" and rule["applies_to_release"] is True
    assert rule["releases_text"] == "0.25.0-0.33.0"
    assert "Each tensor-parallel rank holds the same number of attention heads" in rule["meaning"]
    assert rule["fix"].startswith("Use a tensor-parallel size that divides the head count")
    assert [f["flag"] for f in ex["flags"]] == ["--tensor-parallel-size"]


def test_a_seed_record_with_its_solutions_and_example_fix(cli):
    out, _ = explain_json(cli, (LOGS / "replayssm-llama-0.28.0.log").read_text())
    [ex] = errors_of(out)
    assert codes(ex) == ["SL201"]
    [record] = ex["records"]
    assert record["id"] == "1b37c46a30753abd"
    assert record["solutions"] and record["example_fix"]
    assert "ReplaySSM" in record["documentation"]
    # The generated table: 0.29.0 reworded it ("is not supported for architecture").
    assert ex["rules"][0]["releases_text"] == "0.27.0-0.28.0"
    assert ex["rules"][0]["applies_to_release"] is True


def test_argparse_error_line_and_the_flag_no_release_has(cli):
    out, _ = explain_json(cli, (LOGS / "unknown-flag-0.33.0.log").read_text())
    [ex] = out["explanations"]
    assert ex["message"] == "unrecognized arguments: --max-modl-len 8192"
    assert "SL101" in codes(ex)
    assert [r["id"] for r in ex["records"]] == ["sl-unrecognized-arguments"]
    [flag] = ex["flags"]
    assert flag["flag"] == "--max-modl-len" and flag["releases"] is None
    assert "did you mean --max-model-len" in flag["note"]


def test_a_flag_another_release_has(cli):
    out, _ = explain_json(cli, (LOGS / "removed-flag-0.27.1.log").read_text(), "--vllm-version", "0.27.1")
    [ex] = out["explanations"]
    [flag] = ex["flags"]
    # vLLM 0.6.0-0.16.0 had it, 0.17.0-0.32.0 do not; 0.33.0 has it again (as
    # enable-log-requests' negative).
    assert (flag["flag"], flag["releases"], flag["note"]) == (
        "--disable-log-requests", "0.6.0-0.16.0, 0.33.0", "not in vLLM 0.27.1")


def test_pydantic_inside_argparse_is_one_message_and_the_specific_rule_wins(cli):
    out, _ = explain_json(cli, (LOGS / "structured-outputs-0.33.0.log").read_text())
    [ex] = out["explanations"]
    assert (ex["line"], ex["end_line"]) == (3, 4)
    assert codes(ex) == ["SL321"]  # not SL103's generic "argument X: ..."


@pytest.mark.parametrize("name, code", [
    ("invalid-choice-0.25.0", "SL103"),
    ("auto-tool-choice-0.33.0", "SL322"),
    ("quantization-0.30.0", "SL310"),
])
def test_other_logs(cli, name, code):
    out, _ = explain_json(cli, (LOGS / f"{name}.log").read_text())
    assert [codes(ex) for ex in errors_of(out)] == [[code]]


def test_text_output_and_exit_status(cli):
    proc = cli("explain", "Error: --enable-auto-tool-choice requires --tool-call-parser")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "line 1: Error: --enable-auto-tool-choice requires --tool-call-parser"
    assert lines[1].startswith("  SL322 auto-tool-choice-requires-parser: ")
    assert "    releases: vLLM 0.25.0-0.33.0" in lines
    assert any(line.startswith("    --tool-call-parser (vLLM 0.6.0-0.33.0)") for line in lines)
    nothing = cli("explain", "-", stdin="INFO all good\nthe server is up\n")
    assert nothing.returncode == 1
    assert nothing.stdout == "servelint knows no vLLM error message in this text.\n"
    bad = cli("explain", "--vllm-version", "9.9", "x")
    assert bad.returncode == 2 and "no servelint knowledge for vLLM '9.9'" in bad.stderr


def test_users_records_are_matched(cli, tmp_path):
    record = {
        "id": "my-oom", "errorMessage": "CUDA out of memory. Tried to allocate {n}",
        "messagePattern": r"CUDA out of memory\. Tried to allocate (\S+)",
        "documentation": "The GPU ran out of memory.", "solutions": ["Lower --gpu-memory-utilization."],
    }
    path = tmp_path / "records.json"
    path.write_text(json.dumps([record]))
    out, _ = explain_json(cli, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                          "--records", str(path))
    [ex] = out["explanations"]
    assert ex["rules"] == [] and [r["id"] for r in ex["records"]] == ["my-oom"]
    assert ex["records"][0]["solutions"] == ["Lower --gpu-memory-utilization."]


# -- every conformance message, wrapped the way vLLM prints it -------------------------


def _argparse_error(message: str) -> str:
    """What argparse writes for ``parser.error(message)``: its usage and
    ``prog: error: message`` (vLLM's serve parser is an ArgumentParser)."""
    parser = argparse.ArgumentParser(prog="vllm serve", usage="vllm serve [model_tag] [options]")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
        parser.error(message)
    return err.getvalue()


def _pydantic_error(message: str) -> str:
    """The traceback of a pydantic dataclass whose validator raises
    ``ValueError(message)``, as VllmConfig(...) does."""
    from pydantic import model_validator
    from pydantic.dataclasses import dataclass

    @dataclass
    class VllmConfig:
        model: str = "m"

        @model_validator(mode="after")
        def check(self):
            raise ValueError(message)

    try:
        VllmConfig()
    except Exception as exc:  # pydantic_core.ValidationError
        return "".join(traceback.format_exception(exc))
    raise AssertionError("unreachable")


def _raised(exception: str, message: str) -> str:
    cls = {"TypeError": TypeError, "KeyError": KeyError, "AssertionError": AssertionError,
           "IndexError": IndexError, "AttributeError": AttributeError}.get(exception, ValueError)
    try:
        raise cls(message)
    except Exception as exc:
        return "".join(traceback.format_exception(exc))


def _wrapped(verdict: dict, n: int) -> str:
    message = verdict["message"]
    if verdict["exception"] == "SystemExit":
        text = _argparse_error(message)
    elif verdict["exception"] == "ValidationError":
        text = _pydantic_error(message)
    else:
        text = _raised(verdict["exception"], message)
    if n % 2:
        # vLLM's API-server process prefixes every line it logs.
        text = "".join(f"(APIServer pid={1000 + n}) {line}\n" for line in text.splitlines())
    return text


def _servelint_truth() -> dict[tuple[str, str], set[str]]:
    """(release, case) -> the rules servelint reports on the case's launch
    (the conformance harness's lint) as errors whose vLLM message is the one
    vLLM printed (a rule that expects another text, e.g. one vLLM never gets
    to because it crashes first, cannot be found from this one)."""
    sys.path.insert(0, str(CONFORMANCE))
    import conformance_harness as h

    cases, verdicts = h.load_cases(), h.load_verdicts()
    work = h.prepare_workdir(Path(tempfile.mkdtemp()))
    truth = {}
    i = 0
    for release, per_case in verdicts.items():
        for case_id, v in per_case.items():
            if v.get("verdict") != "error" or case_id not in cases:
                continue
            i += 1
            answer = h.lint(cases[case_id], release, work, i)
            truth[(release, case_id)] = {
                d.code for d in answer.errors if _same_message((d.data or {}).get("vllm_message"), v["message"])
            }
    return truth


def _same_message(ours: str | None, theirs: str) -> bool:
    """The rule's vLLM message is vLLM's, up to its values: one contains the
    other, or they start alike ("argument --tensor-parallel-size: ..." and
    vLLM's "argument --tensor-parallel-size/-tp: ...")."""
    if not ours:
        return False
    if ours in theirs or theirs in ours:
        return True
    return len(os.path.commonprefix([ours, theirs])) >= 16


def test_every_conformance_message_is_explained_by_the_rule_that_fires(cli):
    truth = _servelint_truth()
    verdicts = {}
    for path in sorted((CONFORMANCE / "verdicts").glob("*.json")):
        data = json.loads(path.read_text())
        verdicts[data["release"]] = data["cases"]
    # One log: each distinct message once (explain counts a message once;
    # a message is known by its first line), wrapped, between INFO lines;
    # the lines it takes.
    by_message: dict[str, list] = {}
    for key, expected in sorted(truth.items()):
        if expected:
            by_message.setdefault(verdicts[key[0]][key[1]]["message"].split("\n")[0], []).append(key)
    parts, where = [], {}
    line = 1
    for n, (message, keys) in enumerate(by_message.items()):
        block = f"INFO case {n}\n" + _wrapped(verdicts[keys[0][0]][keys[0][1]], n)
        where[message] = (line + 1, line + block.count("\n") - 1)
        parts.append(block)
        line += block.count("\n")
    out, proc = explain_json(cli, "".join(parts))
    assert proc.returncode == 0
    explanations = out["explanations"]
    missed = []
    for message, (first, last) in where.items():
        named = {c for ex in explanations if first <= ex["line"] <= last for c in codes(ex)}
        for key in by_message[message]:
            if not named & truth[key]:
                missed.append((key, sorted(truth[key]), sorted(named), message[:120]))
    assert len(by_message) > 250 and sum(map(len, by_message.values())) > 2000
    assert missed == [], "\n".join(map(repr, missed))
