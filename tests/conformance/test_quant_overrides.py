"""`--quantization` values that checkpoint overrides accept (SL310 / SL325).

vLLM's ``ModelConfig._verify_quantization`` lets each method's
``override_quantization_method`` claim the checkpoint before it checks the
value against the method list, so a value that is no method ("marlin") or
any value at all (for auto-round, ModelOpt... checkpoints) can pass.  The
facts live in ``servelint.derive.quantization``; the top25 suite
(cases ``quant_marlin``, ``qmis_*marlin*``, ``qmis_gptq_bogus``) checks them
against vLLM's verdicts on its CPU platform; this file covers the targets
and checkpoints the oracle cannot show, and the table against vLLM's source
when the unpacked releases are at hand.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import lint_argv  # noqa: E402

from servelint import knowledge  # noqa: E402
from servelint.derive import quantization as qc  # noqa: E402
from servelint.derive.quantization import methods  # noqa: E402

TOP25 = HERE / "top25" / "models"
RELEASES = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")


def rules_hit(argv, version="0.33.0", target="cuda"):
    return sorted({r.rule.name for r in lint_argv(argv, version, target=target) if r.is_error})


def model(tmp_path, base: str, **changes) -> str:
    cfg = json.loads((HERE / "models" / base / "config.json").read_text())
    cfg.update(changes)
    d = tmp_path / f"{base}-{len(list(tmp_path.iterdir()))}"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    return str(d)


def test_marlin_is_the_only_value_outside_the_methods():
    for version in RELEASES:
        named = set().union(*qc.OVERRIDE_USER_VALUES.values())
        assert named - set(methods(version)) == {"marlin"}, version


@pytest.mark.parametrize("version", [v for v in RELEASES if v in knowledge.RELEASES])
def test_marlin_on_gptq_and_awq(version):
    gptq, awq = str(TOP25 / "llama-gptq"), str(TOP25 / "llama-awq")
    assert rules_hit([gptq, "-q", "marlin"], version) == []
    assert rules_hit([gptq, "-q", "Marlin"], version, target="cpu") == []
    assert rules_hit([awq, "-q", "marlin"], version) == []
    assert rules_hit([awq, "-q", "marlin"], version, target="rocm") == []
    # AutoAWQConfig does not override on a CPU platform: a mismatch there.
    assert rules_hit([awq, "-q", "marlin"], version, target="cpu") == ["quantization-unknown"]
    assert rules_hit([str(HERE / "models" / "llama"), "-q", "marlin"], version) == ["quantization-unknown"]
    assert rules_hit([gptq, "-q", "bogus"], version) == ["quantization-unknown"]


def test_marlin_picks_auto_gptq_for_the_dtype_check():
    gptq = str(TOP25 / "llama-gptq")
    assert rules_hit([gptq, "-q", "marlin", "--dtype", "float32"]) == ["quant-act-dtype-unsupported"]


def test_overrides_that_ignore_the_value(tmp_path):
    auto_round = model(tmp_path, "llama", quantization_config={"quant_method": "auto-round", "bits": 4})
    assert rules_hit([auto_round, "-q", "bogus"]) == []
    modelopt = model(tmp_path, "llama", quantization_config={"quant_method": "modelopt", "quant_algo": "FP8"})
    assert rules_hit([modelopt, "-q", "bogus"]) == []
    gpt_oss = model(tmp_path, "llama", model_type="gpt_oss", quantization_config={"quant_method": "mxfp4"})
    assert rules_hit([gpt_oss, "-q", "bogus"]) == []
    mxfp4 = str(TOP25 / "qwen3-mxfp4")  # not gpt-oss: nothing claims it
    assert rules_hit([mxfp4, "-q", "bogus"]) == ["quantization-unknown"]
    fp8 = str(TOP25 / "qwen3-fp8")
    assert rules_hit([fp8, "-q", "bogus"]) == ["quantization-unknown"]


def test_unknown_checkpoint_gets_the_benefit_of_the_doubt_for_marlin_only(tmp_path):
    missing = str(tmp_path / "no-such-model")
    assert rules_hit([missing, "-q", "marlin"]) == []


# -- the table against vLLM's source, when the unpacked releases are here -----

ORACLE_RELEASES = Path(os.environ.get("VLLM_ORACLE_RELEASES", "/work/oracle-home/releases"))


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize("method", sorted(qc.OVERRIDE_USER_VALUES))
def test_table_matches_vllm_source(version, method):
    site = qc.override_site(method, version)  # generated: knowledge/data/validators.json
    assert site is not None, f"no override_quantization_method for {method} in vLLM {version}: regenerate"
    src_path = ORACLE_RELEASES / version / site.file
    if not src_path.is_file():
        pytest.skip(f"no unpacked vLLM {version} at {ORACLE_RELEASES}")
    src = src_path.read_text()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.FunctionDef) and node.name == "override_quantization_method":
            break
    else:
        pytest.fail(f"no override_quantization_method in {src_path}")
    assert node.lineno == site.line
    tuples = [ast.literal_eval(t) for t in ast.walk(node) if isinstance(t, ast.Tuple)]
    assert len(tuples) == 1 and set(tuples[0]) == qc.OVERRIDE_USER_VALUES[method]
    on_cpu = any(isinstance(c, ast.Attribute) and c.attr == "is_cpu" for c in ast.walk(node))
    assert on_cpu == (method in qc.NOT_ON_CPU)
