"""The launch limit (``max-launches``) in an editor's sequence of edits.

A file past the limit gets one SL012 where checking stops, and findings only
before it.  An edit that moves a launch under or over the limit must give
what a fresh lint of the new text gives, in every form.
"""

from __future__ import annotations

import textwrap

from servelint.engine import Engine
from servelint.settings import Settings

LIMIT = Settings(vllm_version="0.33.0", max_launches=3)


def _line(result, d) -> int:
    return result.source.text.count("\n", 0, d.span.start)


def _found(result):
    return [(d.code, _line(result, d)) for d in result.diagnostics]


def _all(result):
    return [(d.code, d.span, d.severity, d.message) for d in result.diagnostics]


def _fresh(path, text):
    return _all(Engine(LIMIT).lint(path, text))


SCRIPT = "#!/bin/sh\n" + "".join(f"vllm serve m{i} --port {i} --bogus-{i}\n" for i in range(5))


def test_script_past_the_limit():
    result = Engine(LIMIT).lint("s.sh", SCRIPT)
    assert _found(result) == [("SL101", 1), ("SL101", 2), ("SL101", 3), ("SL012", 4)]
    [limit] = [d for d in result.diagnostics if d.code == "SL012"]
    assert "at most 3 launches" in limit.message


def test_edits_move_launches_under_and_over_the_limit():
    engine = Engine(LIMIT)
    texts = [
        SCRIPT,
        SCRIPT.replace("vllm serve m0 --port 0 --bogus-0\n", ""),  # the fourth comes under the limit
        SCRIPT.replace("vllm serve m0 --port 0 --bogus-0\n", "").replace("vllm serve m4 --port 4 --bogus-4\n", ""),
        "#!/bin/sh\nvllm serve x --nope\n" + SCRIPT[len("#!/bin/sh\n"):],  # one more above: two over
        "#!/bin/sh\nvllm serve x --nope\n",
        "#!/bin/sh\nvllm serve x --nope\n" + "".join(f"vllm serve y --port {i}\n" for i in range(3)),
    ]
    for text in texts:
        assert _all(engine.lint("s.sh", text)) == _fresh("s.sh", text), text


def _pod(i: int) -> str:
    return f"""apiVersion: v1
kind: Pod
metadata:
  name: p{i}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      command: ["vllm", "serve", "m{i}", "--bogus-{i}"]
"""


MANIFEST = "".join("---\n" + _pod(i) for i in range(5))


def test_manifest_past_the_limit():
    engine = Engine(LIMIT)
    result = engine.lint("pods.yaml", MANIFEST)
    codes = [code for code, _ in _found(result)]
    assert codes == ["SL101", "SL101", "SL101", "SL012"]
    fewer = MANIFEST.split("---\n", 2)[2]
    assert _all(engine.lint("pods.yaml", "---\n" + fewer)) == _fresh("pods.yaml", "---\n" + fewer)


def test_no_limit_checks_every_launch():
    result = Engine(Settings(vllm_version="0.33.0", max_launches=0)).lint("s.sh", SCRIPT)
    assert [c for c, _ in _found(result)] == ["SL101"] * 5


def test_random_edits_of_a_manifest_past_the_limit_equal_fresh_lints():
    import random

    rnd = random.Random(7)
    engine = Engine(LIMIT)
    text = MANIFEST + "# servelint: vllm=0.30.0\n"
    engine.lint("pods.yaml", text)
    for _ in range(120):
        at = rnd.randrange(len(text) + 1)
        choice = rnd.randrange(4)
        if choice == 0:
            text = text[:at] + rnd.choice(["x", "-", "\n", ":", " ", "---\n"]) + text[at:]
        elif choice == 1:
            text = text[:at] + text[at + 1 :]
        elif choice == 2:  # a whole pod more, or one fewer
            text = text + MANIFEST.split("---\n")[1 + rnd.randrange(5)].join(["---\n", ""])
        else:
            docs = text.split("---\n")
            if len(docs) > 2:
                del docs[1 + rnd.randrange(len(docs) - 1)]
            text = "---\n".join(docs)
        assert _all(engine.lint("pods.yaml", text)) == _fresh("pods.yaml", text), text


COMPOSE = "services:\n" + "".join(f"""  s{i}:
    image: vllm/vllm-openai:v0.33.0
    command: ["--model", "m{i}", "--bogus-{i}"]
""" for i in range(6))

K8S_LIST = "apiVersion: v1\nkind: List\nitems:\n" + "".join(
    "  - " + textwrap.indent(_pod(i), "    ")[4:] for i in range(6))


def _as_limited(path: str, text: str) -> list:
    """What the limit should give: the unlimited lint's findings before the
    fourth launch, then an SL012 at that launch's entry."""
    full = Engine(Settings(vllm_version="0.33.0", max_launches=0)).lint(path, text)
    fourth = full.launches[3].launch
    kept = [d for d in full.diagnostics if d.span.start < fourth.span.start]
    return [(d.code, d.span) for d in kept] + [("SL012", fourth.entry_span)]


def test_one_yaml_document_with_many_launches():
    # A parser of one YAML document stops reading launches past the limit too.
    for path, text in (("compose.yaml", COMPOSE), ("pods.yaml", K8S_LIST)):
        got = Engine(LIMIT).lint(path, text)
        assert [(d.code, d.span) for d in got.diagnostics] == _as_limited(path, text), path
        assert len(got.launches) == 3
