"""The rules reference page is generated from the rules' docstrings and kept current."""

from pathlib import Path

from servelint.docs import rules_markdown
from servelint.rules import rule_classes

ROOT = Path(__file__).parent.parent


def test_rules_page_is_current():
    page = (ROOT / "docs" / "rules.md").read_text()
    assert page == rules_markdown(), "run: servelint rules --format markdown > docs/rules.md"


def test_every_rule_documents_what_why_and_fix():
    for cls in rule_classes():
        doc = cls.doc()
        assert doc.strip(), cls.name
        for section in ("## What it does", "## Why", "## Fix"):
            assert section in doc, f"{cls.name} lacks {section}"
