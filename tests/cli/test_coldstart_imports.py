"""What a one-file `servelint check` must not import (each is milliseconds
of its cold start): looked at in a fresh interpreter, through sys.modules."""

from __future__ import annotations

import os
import subprocess
import sys


def _imported_after_check(path: str, names: tuple[str, ...]) -> list[str]:
    code = (
        "import sys, io, contextlib\n"
        "from servelint.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['check', '--format', 'json', '--fail-on', 'never', {path!r}])\n"
        f"print(' '.join(m for m in {names!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ)).stdout
    return out.split()


def test_a_clean_launch_imports_no_difflib(tmp_path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096\n")
    assert _imported_after_check(str(script), ("difflib", "argparse", "multiprocessing")) == []


def test_the_usual_check_command_line_imports_no_argparse(tmp_path) -> None:
    # cli._quick_args reads it (tests/cli/test_coldstart_argv.py).
    script = tmp_path / "run.sh"
    script.write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-modl-len 4096\n")
    assert _imported_after_check(str(script), ("argparse", "gettext")) == []


def test_an_unknown_flag_still_gets_its_suggestion(tmp_path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-modl-len 4096\n")
    code = (
        "import io, contextlib, json\n"
        "from servelint.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    main(['check', '--format', 'json', '--fail-on', 'never', {str(script)!r}])\n"
        "print([d['message'] for d in json.loads(buf.getvalue())['diagnostics'] if d['code'] == 'SL101'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ)).stdout
    assert "did you mean --max-model-len" in out


def test_the_bash_grammar_loads_without_importlib_resources(tmp_path) -> None:
    # tree-sitter-bash's package __init__ imports it (14 ms) for highlight
    # queries servelint never reads.
    script = tmp_path / "run.sh"
    script.write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096\n")
    assert _imported_after_check(str(script), ("importlib.resources", "tree_sitter_bash")) == []


def test_the_bash_grammar_loaded_without_its_package_is_the_package_s() -> None:
    import tree_sitter_bash
    from tree_sitter import Language

    from servelint.parse.shell import grammar as shell

    # Languages compare by the grammar they point to.
    assert Language(shell._bash_grammar()) == Language(tree_sitter_bash.language())
