"""Which fixes ``check`` re-lints before offering them.

A fix drawn from a record's exampleFix is data from outside and is always
re-linted.  A rule's own fix (the did-you-mean of an unknown flag, even
though that diagnostic names a record) is re-linted only within the
verifier's budget: on a launch over ``RULE_FIX_CHARS`` it is offered as it
is, which is what keeps a 100 KB launch line under a second.
"""

from __future__ import annotations

from servelint.engine import Engine
from servelint.fixes import verify
from servelint.settings import Settings


def _checked(text: str, monkeypatch) -> tuple[dict, list[str]]:
    relinted: list[str] = []
    real = verify._Verifier.lint

    def lint(self, main, fixed, overlay, settings):
        relinted.append(fixed)
        return real(self, main, fixed, overlay, settings)

    monkeypatch.setattr(verify._Verifier, "lint", lint)
    engine = Engine(Settings(), incremental=False)
    result = engine.lint("serve.sh", text)
    by_code = {}
    for d in engine.checked(result):
        by_code.setdefault(d.code, []).append(d)
    return by_code, relinted


def _launch(padding: int) -> str:
    return ("#!/bin/sh\n# servelint: vllm=0.28.0\n"
            "vllm serve mistralai/Mamba-Codestral-7B-v0.1 --use-replayssm "
            + "--port 8000 " * padding + "--max-modl-len 4096\n")


def test_long_launch_rule_fixes_offered_without_relint_record_fixes_relinted(monkeypatch):
    text = _launch(9_000)
    assert len(text) > verify.RULE_FIX_CHARS
    found, relinted = _checked(text, monkeypatch)

    (unknown,) = found["SL101"]
    assert unknown.record is not None  # the diagnostic names a record ...
    # --max-log-len is not a near miss of --max-modl-len: one suggestion.
    assert [f.title for f in unknown.fixes] == ["Replace with --max-model-len"]
    # ... but its fixes are the rule's: offered, not re-linted.
    assert not any("--max-model-len 4096" in t or "--max-log-len 4096" in t for t in relinted)

    (arch,) = found["SL201"]
    titles = [f.title for f in arch.fixes]
    assert "Remove --use-replayssm" in titles
    assert all(f.record == arch.record for f in arch.fixes if f.title == "Remove --use-replayssm")
    # The record's fix was re-linted: the launch without --use-replayssm.
    assert any("--use-replayssm" not in t and "--max-modl-len 4096" in t for t in relinted)


def test_short_launch_rule_fixes_are_relinted(monkeypatch):
    found, relinted = _checked(_launch(3), monkeypatch)
    (unknown,) = found["SL101"]
    assert [f.title for f in unknown.fixes][0] == "Replace with --max-model-len"
    assert any("--max-model-len 4096" in t for t in relinted)
