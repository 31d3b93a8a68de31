"""The rule registry and the generated vLLM check table hold the rules together."""

from __future__ import annotations

import glob
import importlib
import json
import os
import pkgutil
import sys

import pytest

import servelint.derive

from servelint.diagnostics import Applicability, Category, Severity
from servelint.engine import Engine
from servelint.knowledge import validators
from servelint.knowledge.validators import VllmCheck
from servelint.knowledge.versions import version_key
from servelint.rules import registry, rule_classes
from servelint.rules.registry import ORDER
from servelint.rules.base import Rule
from servelint.settings import Settings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _rule(code="SL999", name="made-up", category=Category.CONFIG, **extra):
    attrs = {"code": code, "name": name, "category": category, "__module__": "tests.made_up", **extra}
    return type(f"Rule{code}", (Rule,), attrs)


def test_the_registry_refuses_clashing_codes_and_names():
    problems = registry.validate([_rule(), _rule("SL999", "other"), _rule("SL998", "made-up")])
    assert any("code SL999 is also" in p for p in problems)
    assert any("name made-up is also" in p for p in problems)


def test_the_registry_refuses_a_category_outside_the_contract():
    (problem,) = registry.validate([_rule(category="invalid")])
    assert "category 'invalid' is not a Category" in problem


def test_the_registry_refuses_loose_fix_and_check_declarations():
    problems = registry.validate([
        _rule("SL990", "a", fixes={True}),
        _rule("SL991", "b", vllm_checks=(VllmCheck("x.one", "needle"),)),
        _rule("SL992", "c", vllm_checks=(VllmCheck("x.two", "one"),), reviewed=("0.25.0", "0.33.0")),
        _rule("SL993", "d", vllm_checks=(VllmCheck("x.two", "other"),), reviewed=("0.25.0", "0.33.0")),
        _rule("SL994", "e", severity=2),
    ])
    assert any("fixes must be a frozenset of Applicability" in p for p in problems)
    assert any("says no release it was reviewed for" in p for p in problems)
    assert any("'x.two' declared differently" in p for p in problems)
    assert any("severity 2 is not a Severity" in p for p in problems)


def test_a_family_named_in_the_order_must_exist(monkeypatch):
    monkeypatch.setattr(registry, "ORDER", registry.ORDER + ("no_such_family",))
    with pytest.raises(registry.RegistryError, match="no_such_family"):
        registry.rule_module_names()


def _extra_rules_dir(tmp_path, monkeypatch, files: dict[str, str]):
    """Put ``files`` (paths under rules/) beside the real rule packages."""
    from servelint import rules

    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path)])
    registry.rule_classes.cache_clear()


_RULE = """
from servelint.diagnostics import Category
from servelint.rules.base import Rule


class {cls}(Rule):
    code = "{code}"
    name = "{name}"
    category = Category.CONFIG
"""


@pytest.mark.parametrize("files, message", [
    ({"broken_family/__init__.py": "", "broken_family/broken_rule.py": "import no_such_module_anywhere\n"},
     "broken_family.broken_rule does not import"),
    ({"stray_rule.py": _RULE.format(cls="Stray", code="SL990", name="stray-rule")},
     "stray_rule is not in a family package"),
    ({"misnamed/__init__.py": "", "misnamed/other_name.py": _RULE.format(cls="A", code="SL990", name="made-up-rule")},
     "rule 'made-up-rule' belongs in made_up_rule.py"),
    ({"crowded/__init__.py": "", "crowded/two_rules.py": _RULE.format(cls="A", code="SL990", name="two-rules")
      + _RULE.format(cls="B", code="SL991", name="two-rules-b")},
     "a rule module holds one rule, not 2"),
])
def test_the_registry_refuses_a_rule_module_out_of_the_layout(tmp_path, monkeypatch, files, message):
    _extra_rules_dir(tmp_path, monkeypatch, files)
    try:
        with pytest.raises(registry.RegistryError, match=message):
            registry.rule_classes()
    finally:
        registry.rule_classes.cache_clear()
        top = {f"servelint.rules.{rel.split('/')[0].removesuffix('.py')}" for rel in files}
        for name in [m for m in sys.modules if any(m == t or m.startswith(t + ".") for t in top)]:
            del sys.modules[name]


def test_every_family_in_order_is_found_and_every_rule_is_valid():
    names = registry.rule_module_names()
    families = list(dict.fromkeys(n.partition(".")[0] for n in names))
    assert families[: len(ORDER)] == list(ORDER)
    assert registry.validate(list(rule_classes())) == []
    # Families in ORDER, each family's rules by code.
    classes = rule_classes()
    rank = {f: i for i, f in enumerate(families)}
    keys = [(rank[c.__module__.split(".")[2]], c.code) for c in classes]
    assert keys == sorted(keys)


@pytest.mark.parametrize("cls", rule_classes(), ids=lambda c: c.code)
def test_every_rule_documents_itself(cls):
    doc = cls.doc()
    for section in ("## What it does", "## Why", "## Example", "## Fix"):
        assert f"\n{section}\n" in f"\n{doc}", (cls.code, section)
    # A rule that offers fixes says how safe they are, and only then.
    assert ("\n## Fix safety\n" in doc) == bool(cls.fixes), cls.code
    # A warning or an error says what evidence it needs (docs/rules.md, the evidence policy).
    if cls.severity in (Severity.ERROR, Severity.WARNING):
        assert "\n## Evidence\n" in doc, (cls.code, "## Evidence")
    # The sections in this order, each once, with a blank line before each heading.
    order = ["## What it does", "## Why", "## Example", "## Fix", "## Fix safety", "## Evidence", "## vLLM source"]
    found = [line for line in doc.splitlines() if line.startswith("## ")]
    assert [h for h in order if h in found] == found, (cls.code, found)
    for heading in found:
        assert f"\n\n{heading}\n" in doc, (cls.code, heading, "needs a blank line before it")
    assert isinstance(cls.severity, Severity)


@pytest.mark.parametrize("cls", [c for c in rule_classes() if c.vllm_checks], ids=lambda c: c.code)
def test_source_lines_are_generated_not_typed(cls):
    """The per-release places of a mirrored check come from the generated
    table (``Rule.doc``); a docstring that types them again goes stale."""
    import inspect
    import re

    typed = re.findall(r"\b0\.\d\d\.(?:\d|x)(?:/0\.\d\d\.\d)?:\d+", inspect.cleandoc(cls.__doc__ or ""))
    assert not typed, (cls.code, typed)


# -- the generated table of vLLM checks ------------------------------------------


@pytest.mark.parametrize("cls", [c for c in rule_classes() if c.vllm_checks], ids=lambda c: c.code)
def test_every_release_with_the_check_was_reviewed(cls):
    """A release the table finds a rule's check in must be one the rule was
    reviewed for: adding a release makes this fail until someone reviews the
    rule (its message, its conditions) for it and moves ``reviewed``."""
    first, last = cls.reviewed
    for check in cls.vllm_checks:
        found = validators.sites(check.key)
        assert found, f"{cls.code}: check {check.key} is in no release: regenerate (tools/knowledge/validators.py)"
        for release in found:
            assert version_key(first) <= version_key(release) <= version_key(last), (
                f"{cls.code} was not reviewed for vLLM {release}, which has its check {check.key!r} "
                f"({found[release].where}): review it and extend reviewed={cls.reviewed}"
            )


def test_the_table_is_generated_from_the_rules_needles():
    with open(os.path.join(ROOT, "server/servelint/knowledge/data/validators.json"), encoding="utf-8") as f:
        table = json.load(f)["checks"]
    declared = {c.key: c for cls in rule_classes() for c in cls.vllm_checks}
    for info in pkgutil.iter_modules(servelint.derive.__path__):
        module = importlib.import_module(f"servelint.derive.{info.name}")
        declared.update((c.key, c) for c in getattr(module, "VLLM_FACTS", ()))
    assert set(table) == set(declared), "run tools/knowledge/validators.py"
    for key, check in declared.items():
        assert table[key]["needle"] == validators.stored_needle(check), (
            f"{key}: the needle changed since the table was generated: run tools/knowledge/validators.py")


def test_a_new_release_stays_silent_until_the_rule_is_reviewed_for_it(monkeypatch):
    (cls,) = [c for c in rule_classes() if c.code == "SL302"]
    newest = validators.scanned_releases()[-1]
    site = validators.site("max_len", newest)
    future = ".".join(map(str, version_key(newest)[:1] + (version_key(newest)[1] + 1, 0)))
    real = validators.sites

    def with_future(key):
        out = dict(real(key))
        if key == "max_len":
            out[future] = site
        return out

    monkeypatch.setattr(validators, "sites", with_future)
    monkeypatch.setattr(validators, "site", lambda key, release: with_future(key).get(release))
    assert cls().applies_to(newest)
    assert not cls().applies_to(future)  # its check is there, the review is not
    monkeypatch.setattr(cls, "reviewed", (cls.reviewed[0], future))
    assert cls().applies_to(future)


# -- what rules emit agrees with what they declare -------------------------------


def _golden_inputs() -> list[str]:
    out = []
    for pattern in ("tests/rules/golden/**/*", "tests/forms/**/*", "examples/*"):
        for p in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            if os.path.isfile(p) and not p.endswith((".out", ".json", ".md")):
                out.append(p)
    return sorted(out)


def test_rules_offer_only_the_fix_safety_they_declare():
    engine = Engine(Settings())
    by_code = {c.code: c for c in rule_classes()}
    seen = 0
    for path in _golden_inputs():
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        result = engine.lint(path, text)
        for d in engine.checked(result):
            for fix in engine.verified_fixes(result, d):
                if fix.record is not None:
                    continue  # a record's exampleFix: the record's, not the rule's
                seen += 1
                assert fix.applicability in by_code[d.code].fixes, (d.code, fix.title, fix.applicability, path)
    assert seen > 20


def test_every_parse_problem_has_a_rule():
    """A parser's problem nobody reports would be lost silently."""
    from servelint.parse import problems
    from servelint.rules import problem_rules

    by_problem, judged = problem_rules()
    names = {v for k, v in vars(problems).items() if k.isupper() and isinstance(v, str)}
    assert names - set(by_problem) - judged == set()
    assert set(by_problem) | judged <= names
