"""Per-release vLLM facts the rules use are generated, and agree with vLLM.

The quantization methods, the model types refused float16 and the shape of
the ReplaySSM validator used to be typed by hand in rule files; they are
now facts of the generated table (``knowledge/data/validators.json``, code
facts found in each release's unpacked wheel).  These tests check what the
rules then see, release by release, and, where the unpacked releases are at
hand (``$VLLM_ORACLE_HOME/releases``, default ``~/.cache/vllm-oracle``),
that the candidate lists behind the facts still cover vLLM's own source, so
a new member of a list is not silently missing.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from servelint import knowledge
from servelint.derive import cache, model, quantization
from servelint.knowledge import validators

RELEASES_DIR = Path(os.environ.get("VLLM_ORACLE_HOME") or Path.home() / ".cache" / "vllm-oracle") / "releases"
SCANNED = validators.scanned_releases()


def _source(version: str, rel: str) -> str:
    path = RELEASES_DIR / version / rel
    if not path.is_file():
        pytest.skip(f"no unpacked vLLM {version} in {RELEASES_DIR}")
    return path.read_text(encoding="utf-8")


def _assigned(src: str, name: str) -> ast.expr:
    for node in ast.walk(ast.parse(src)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.value
    raise AssertionError(f"no {name} = ... in the source")


# -- quantization methods ------------------------------------------------------------


def test_the_method_list_changes_where_vllm_changed_it():
    assert "bitsandbytes" in quantization.methods("0.27.1") and "bitsandbytes" not in quantization.methods("0.28.0")
    assert "nvfp4_per_token" not in quantization.methods("0.25.0") and "nvfp4_per_token" in quantization.methods("0.26.0")
    # vLLM prints the list in its own order, which is the order of the Literal's lines.
    assert quantization.methods("0.33.0")[:3] == ["awq", "auto_awq", "fp8"]
    assert quantization.methods("0.99.0") == []  # a release the table does not have: nothing assumed


@pytest.mark.parametrize("version", SCANNED)
def test_the_method_list_is_vllms_literal(version):
    src = _source(version, "vllm/model_executor/layers/quantization/__init__.py")
    literal = _assigned(src, "QuantizationMethods")
    assert isinstance(literal, ast.Subscript)
    members = [e.value for e in literal.slice.elts]
    assert quantization.methods(version) == members


@pytest.mark.parametrize("version", SCANNED)
@pytest.mark.parametrize("method", sorted(quantization.OVERRIDE_FACTS))
def test_the_override_places_are_generated(version, method):
    site = quantization.override_site(method, version)
    assert site is not None and site.file.endswith(f"auto_{method}.py")
    src = _source(version, site.file)
    assert src.splitlines()[site.line - 1].strip().startswith("def override_quantization_method(")


# -- model types vLLM refuses float16 for --------------------------------------------------


def test_plamo2_takes_float16_from_0_27():
    assert "plamo2" in model.float16_unsupported_model_types("0.26.0")
    assert "plamo2" not in model.float16_unsupported_model_types("0.27.0")
    assert "gemma3_text" in model.float16_unsupported_model_types("0.33.0")


@pytest.mark.parametrize("version", SCANNED)
def test_the_float16_list_is_vllms(version):
    src = _source(version, "vllm/config/model.py")
    table = _assigned(src, "_FLOAT16_NOT_SUPPORTED_MODELS")
    assert isinstance(table, ast.Dict)
    assert set(model.float16_unsupported_model_types(version)) == {k.value for k in table.keys}


# -- KV-cache data types ----------------------------------------------------------------------


def test_the_kv_cache_dtypes_are_the_ones_the_parser_lists():
    """0.33.0's parser lists the values of ``--kv-cache-dtype`` without
    enforcing them; the table servelint prints (in vLLM's order) must hold
    exactly those."""
    opt = knowledge.load("0.33.0").by_dest["kv_cache_dtype"]
    assert opt.choices is None and opt.metavar_choices
    assert sorted(cache.KV_CACHE_DTYPES) == sorted(opt.metavar_choices)


def test_the_kv_cache_dtypes_are_in_vllms_order():
    src = _source("0.33.0", "vllm/config/cache.py")
    literal = _assigned(src, "CacheDType")
    assert [e.value for e in literal.slice.elts] == list(cache.KV_CACHE_DTYPES)


# -- the shape of the ReplaySSM validator ----------------------------------------------------------


def test_the_replayssm_shapes_fall_on_the_releases_the_source_shows():
    """``validate_mamba_cached_kernel`` changed shape in 0.29.0 and 0.32.0;
    which shape a release has is read from its checks, not its number."""
    from servelint.rules.replayssm._shared import shape

    def facts(v):
        return {n for n in ("triton_fi", "rs_triton", "kv_kda_exempt") if validators.has(f"replayssm.{n}", v)}

    assert {v: (shape(v), facts(v)) for v in SCANNED} == {
        "0.25.0": (None, set()), "0.26.0": (None, set()),
        "0.27.0": ("independent", set()), "0.27.1": ("independent", set()), "0.28.0": ("independent", set()),
        "0.29.0": ("any-speculation-is-recoverssm", set()),
        "0.30.0": ("any-speculation-is-recoverssm", {"triton_fi", "rs_triton"}),
        "0.31.0": ("any-speculation-is-recoverssm", {"triton_fi", "rs_triton"}),
        "0.32.0": ("kda-recoverssm-or-mamba2", {"triton_fi", "rs_triton"}),
        "0.33.0": ("kda-recoverssm-or-mamba2", {"triton_fi", "rs_triton", "kv_kda_exempt"}),
    }
    assert shape("0.99.0") is None  # a release the table does not have: no check assumed


def test_the_kv_exemption_fact_is_on_the_kv_check():
    """The comment the fact names sits on the condition of the KV-connector check."""
    site = validators.site("replayssm.kv_kda_exempt", "0.33.0")
    assert site is not None
    lines = _source("0.33.0", site.file).splitlines()
    window = "\n".join(lines[site.line - 1: site.line + 8])
    assert "and not self.cache_config.use_kda_recoverssm" in window
    assert "--use-replayssm is incompatible with KV connectors" in window
