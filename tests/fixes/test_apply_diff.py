"""An exampleFix's flag diff, applied to a launch in every form, gives the launch it describes.

A diff (flags removed, added, changed; keys of a JSON-valued flag set, added
or removed; the model switched) is applied to a launch written in each form
and layout; the fixed file is read again and must give the same model and
flags as the expected launch written in that form, with every byte outside
the edits unchanged and nothing the form rejects.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from forms import RENDERERS, Spec  # noqa: E402
from fix_harness import Case  # noqa: E402

from servelint.fixes.apply_diff import fix_for  # noqa: E402
from servelint.fixes.example_fix import alternatives, diff, split_sections  # noqa: E402
from servelint.edits import apply  # noqa: E402

VERSION = "0.28.0"
MODEL = "nvidia/Nemotron-H-8B-Base-8K"
NGRAM = {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}


def _spec_config(value: dict) -> list[str]:
    return ["--speculative-config", json.dumps(value, separators=(",", ":"))]


BASE = [["--port", "8000"], _spec_config(NGRAM), ["--max-model-len", "4096"]]

# name: (exampleFix, the launch expected after the fix: model and flag groups)
CASES = {
    "remove-last": (
        "# before\nvllm serve m --max-model-len 4096\n# after\nvllm serve m\n",
        (MODEL, BASE[:2]),
    ),
    "remove-json-flag": (
        f"# before\nvllm serve m --use-replayssm --speculative-config '{json.dumps(NGRAM)}'\n"
        "# after\nvllm serve m --use-replayssm   # spec decoding off\n",
        (MODEL, [BASE[0], BASE[2]]),
    ),
    "add": (
        "# before\nvllm serve m --port 8000\n# after\nvllm serve m --port 9000 \\\n"
        "  --mamba-cache-mode align --mamba-backend triton --enforce-eager\n",
        (MODEL, [["--port", "9000"], *BASE[1:], ["--mamba-cache-mode", "align"], ["--mamba-backend", "triton"],
                 ["--enforce-eager"]]),
    ),
    "remove-last-and-add": (
        "# before\nvllm serve m --max-model-len 4096\n# after\nvllm serve m --enforce-eager\n",
        (MODEL, BASE[:2] + [["--enforce-eager"]]),
    ),
    "change-value": (
        "# before\nvllm serve m --max-model-len 4096\n# after\nvllm serve m --max-model-len 2048\n",
        (MODEL, BASE[:2] + [["--max-model-len", "2048"]]),
    ),
    "json-set-key": (
        "# before\nvllm serve m --speculative-config '{\"method\":\"ngram\",\"num_speculative_tokens\":3}'\n"
        "# after\nvllm serve m --speculative-config '{\"method\":\"ngram\",\"num_speculative_tokens\":1}'\n",
        (MODEL, [BASE[0], _spec_config({**NGRAM, "num_speculative_tokens": 1}), BASE[2]]),
    ),
    "json-remove-key": (
        "# before\nvllm serve m --speculative-config '{\"method\":\"ngram\",\"prompt_lookup_max\":3}'\n"
        "# after\nvllm serve m --speculative-config '{\"method\":\"ngram\"}'\n",
        (MODEL, [BASE[0], _spec_config({"method": "ngram", "num_speculative_tokens": 3}), BASE[2]]),
    ),
    "json-remove-first-key": (
        "# before\nvllm serve m --speculative-config '{\"method\":\"ngram\",\"prompt_lookup_max\":3}'\n"
        "# after\nvllm serve m --speculative-config '{\"prompt_lookup_max\":3}'\n",
        (MODEL, [BASE[0], _spec_config({"num_speculative_tokens": 3, "prompt_lookup_max": 3}), BASE[2]]),
    ),
    "json-add-key": (
        "# before\nvllm serve m --speculative-config '{\"method\":\"ngram\"}'\n"
        "# after\nvllm serve m --speculative-config '{\"method\":\"ngram\",\"prompt_lookup_min\":2}'\n",
        (MODEL, [BASE[0], _spec_config({**NGRAM, "prompt_lookup_min": 2}), BASE[2]]),
    ),
    "model": (
        "# before (architecture='Mamba2ForCausalLM')\nvllm serve state-spaces/mamba-2.7b --port 8000\n"
        "# after\nvllm serve nvidia/Nemotron-H-8B-v1 --port 8000\n",
        ("nvidia/Nemotron-H-8B-v1", BASE),
    ),
}


def _files(spec: Spec, render) -> Case:
    r = render(spec)
    d = "/servelint-apply-diff"
    return Case({f"{d}/{r.name}": r.text, **{f"{d}/{k}": v for k, v in r.files.items()}}, f"{d}/{r.name}",
                verify=False)


def _value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _read(case: Case) -> tuple[str, dict]:
    """The model and the flags (dest → values) the linted launch gives vLLM."""
    result = case.lint()
    assert not [d for d in result.diagnostics if d.code in ("SL001", "SL006")], result.diagnostics
    (lr,) = result.launches
    inv = lr.invocation
    flags: dict = {}
    for f in inv.flags:
        if f.option is None or f.option.dest in ("model", "config"):
            continue
        if f.dotted_key is not None:
            node = flags.setdefault(f.option.dest, [{}])[0]
            for k in f.dotted_key.split(".")[:-1]:
                node = node.setdefault(k, {})
            node[f.dotted_key.split(".")[-1]] = _value(f.values[0].text)
            continue
        flags[f.option.dest] = [_value(w.text) for w in f.values]
    return inv.model_name, flags


@pytest.mark.parametrize("render", RENDERERS, ids=[r.__name__ for r in RENDERERS])
@pytest.mark.parametrize("name", list(CASES))
def test_the_diff_gives_the_expected_launch(name: str, render) -> None:
    example, (model, groups) = CASES[name]
    (alt,) = alternatives(f"test-{name}", example, VERSION)
    case = _files(Spec(VERSION, MODEL, [list(g) for g in BASE]), render)
    inv = case.lint().launches[0].invocation
    fx = fix_for(inv, case.read, case.main, alt, f"test-{name}")
    assert fx is not None, f"{name} does not apply to {render.__name__}"
    files = dict(case.files)
    for path in {e.path for e in fx.edits}:
        files[path] = apply(case.read(path), [e for e in fx.edits if e.path == path])
    got = _read(Case(files, case.main, verify=False))
    expected = _read(_files(Spec(VERSION, model, [list(g) for g in groups]), render))
    assert got == expected, "\n".join(files[p] for p in {e.path for e in fx.edits})
    only_removal = not (alt.diff.added or alt.diff.changed or alt.diff.keys or alt.diff.model)
    assert fx.safe == only_removal


def test_comments_in_an_example_fix_are_tolerated():
    example = (
        "# before (architecture='Mamba2ForCausalLM')\nvllm serve state-spaces/mamba-2.7b --use-replayssm\n\n"
        "# after\nvllm serve state-spaces/mamba-2.7b   # flag removed\n# or\n"
        "vllm serve nvidia/Nemotron-H-8B-v1 --use-replayssm \\\n  --mamba-cache-mode align --mamba-backend triton"
    )
    first, second = alternatives("seed-like", example, VERSION)
    assert first.index == 0 and first.diff.removed == ["use_replayssm"] and not first.diff.added
    assert second.diff.model == "nvidia/Nemotron-H-8B-v1"
    assert [(c.string, c.values) for c in second.diff.added] == [
        ("--mamba-cache-mode", ("align",)), ("--mamba-backend", ("triton",))]


@pytest.mark.parametrize("example", [
    "no markers at all\nvllm serve m --a",
    "# before\n\n# after\nvllm serve m\n",
    "# before\nvllm serve m --use-replayssm\n# after\necho done\n",
    "# before\nvllm serve a --use-replayssm\nvllm serve b --use-replayssm\n# after\nvllm serve a\n",
    "# before\nvllm serve m --use-replayssm '\n# after\nvllm serve m\n",
])
def test_an_example_that_is_not_launches_gives_no_fix(example, caplog):
    caplog.set_level("INFO", logger="servelint.fixes.example_fix")
    assert alternatives(f"bad-{hash(example)}", example, VERSION) == ()
    assert "no fix offered" in caplog.text or "could not be read" in caplog.text


def test_the_diff_of_the_seed_records():
    from servelint import knowledge
    from servelint.argv import interpret
    from servelint.fixes.example_fix import _launch

    kn = knowledge.load(VERSION)
    ex = ("# before\nvllm serve model --use-replayssm \\\n"
          "  --speculative-config '{\"method\":\"ngram\",\"num_speculative_tokens\":3}'\n"
          "# after\nvllm serve model --use-replayssm")
    before, (after,) = split_sections(ex)
    d = diff(interpret(_launch(before), kn), interpret(_launch(after), kn))
    assert d.removed == ["speculative_config"] and not (d.added or d.changed or d.keys or d.model)
