"""A --config file the script writes with a heredoc is that launch's config:
the engine reads its flags from the heredoc (issue 16, item 3), instead of
reporting the file missing."""

from __future__ import annotations

from servelint.engine import Engine
from servelint.settings import Settings

SETTINGS = Settings(use_installed_vllm=False)
SCRIPT = """\
#!/bin/bash
# servelint: vllm=0.33.0
cat > /tmp/servelint-never-there.yaml <<EOF
model: Qwen/Qwen3-8B
max-modl-len: 4096
EOF
vllm serve --config /tmp/servelint-never-there.yaml
"""


def test_flags_are_read_from_the_heredoc():
    result = Engine(SETTINGS).lint("run.sh", SCRIPT)
    found = {(d.code, SCRIPT[d.span.start : d.span.end]) for d in result.diagnostics}
    # No "config file not found"; the bad key is found where it is written.
    assert not any(code == "SL007" for code, _ in found)
    assert ("SL101", "max-modl-len") in found
    [lr] = result.launches
    assert lr.invocation.model is not None and lr.invocation.model.text == "Qwen/Qwen3-8B"


def test_an_edit_inside_the_heredoc_is_seen():
    engine = Engine(SETTINGS)
    engine.lint("run.sh", SCRIPT)
    fixed = SCRIPT.replace("max-modl-len", "max-model-len")
    result = engine.lint("run.sh", fixed)
    assert not [d for d in result.diagnostics if d.code == "SL101"]
