"""Test-only: make one servelint rule raise, in a CLI or server subprocess.

Put this directory on PYTHONPATH and name the rule in SERVELINT_TEST_BREAK_RULE.
The rule's ``check`` is replaced when servelint loads the rule, so
the process is otherwise exactly the shipped one.
"""

import os

_NAME = os.environ.get("SERVELINT_TEST_BREAK_RULE")

if _NAME:
    import servelint.rules as _rules

    _load = _rules.rule_classes

    def _broken_check(self, ctx):
        raise RuntimeError(f"injected failure in {self.name}")

    def rule_classes():
        classes = _load()
        for cls in classes:
            if cls.name == _NAME:
                cls.check = _broken_check
        return classes

    rule_classes.cache_clear = _load.cache_clear
    _rules.rule_classes = rule_classes

    # The engine imports a rule when a launch can trigger it (registry.load):
    # break it there too.
    from servelint.rules import registry as _registry

    _load_one = _registry.load

    def load(entry):
        cls = _load_one(entry)
        if cls.name == _NAME:
            cls.check = _broken_check
        return cls

    _registry.load = load
