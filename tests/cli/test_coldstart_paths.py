"""knowledge.models spells paths without pathlib (a cold check no longer
imports it); they must read exactly as pathlib wrote them, since messages
and hovers show them."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import PurePosixPath

import pytest

from servelint.knowledge import models

PIECES = ["", ".", "..", "/", "//", "///", "a", "a/", "./a", "../a", "a/./b", "a//b", "a/b/", "/abs", "//net/x",
          "///x", "~", "C:\\x", "C:/x/./y", "name.gguf", ".gguf", "x.", "a.b.c", "models--Qwen--Qwen3-8B"]


@pytest.mark.parametrize("parts", [p for n in (1, 2, 3) for p in itertools.product(PIECES[:14], repeat=n)
                                   if n < 3 or p[0] in ("/abs", "a", ".")] + [(p,) for p in PIECES])
def test_path_spelled_as_pathlib(parts: tuple[str, ...]) -> None:
    want = PurePosixPath(*parts)
    got = models._path(*parts)
    assert got == str(want)
    assert models._parent(got) == str(want.parent)
    assert models._suffix(got) == want.suffix


def test_path_takes_pathlike() -> None:
    assert models._path(PurePosixPath("/x/./y"), "config.json") == "/x/y/config.json"
    with pytest.raises(TypeError):
        models._path(b"/x", "y")


def test_is_dir(tmp_path) -> None:
    (tmp_path / "f").write_text("")
    assert models._is_dir(str(tmp_path))
    assert not models._is_dir(str(tmp_path / "f"))
    assert not models._is_dir(str(tmp_path / "missing"))
    assert not models._is_dir(str(tmp_path / "f" / "under-a-file"))


def test_check_one_file_imports_no_pathlib_from_servelint(tmp_path) -> None:
    """Resolving a local directory and a Hub id imports no pathlib (the
    shell parser's tree_sitter_bash still may: only knowledge.models is
    imported here)."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text('{"architectures": ["LlamaForCausalLM"]}')
    code = (
        "import sys\n"
        "from servelint.knowledge import models\n"
        f"r = models.resolve_model('./m', base_dir={str(tmp_path)!r}, env={{'HOME': {str(tmp_path)!r}}})\n"
        "h = models.resolve_model('meta-llama/Llama-3.1-8B-Instruct', env={'HOME': '/nonexistent'})\n"
        "print(r.architecture, h.architecture, 'pathlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ)).stdout.split()
    assert out == ["LlamaForCausalLM", "LlamaForCausalLM", "False"]
