"""Dashed keys in JSON options: vLLM turns them into underscores for
``--speculative-config`` only, from 0.26.0 (``create_speculative_config``,
vllm/engine/arg_utils.py 0.26.0:1768, 0.33.0:2127).

Oracle verdicts (vllm-oracle, every release 0.25.0-0.33.0, the llama model):
``--speculative-config.method ngram --speculative-config.num-speculative-tokens 1
--speculative-config.prompt-lookup-max 3`` and the same keys dashed in the
JSON are OK from 0.26.0 and fail in 0.25.0 ("Unexpected keyword argument");
``--compilation-config.cudagraph-mode FULL_AND_PIECEWISE`` and
``--kv-transfer-config.kv-connector …`` fail in every release (pydantic's
validation error).
"""

from __future__ import annotations

import pytest

from servelint.engine import Engine
from servelint.settings import Settings

SPEC_DOTTED = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method ngram "
               "--speculative-config.num-speculative-tokens 1 --speculative-config.prompt-lookup-max 3\n")
SPEC_JSON = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
             "'{\"method\": \"ngram\", \"num-speculative-tokens\": 1, \"prompt-lookup-max\": 3}'\n")
COMPILATION = "vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config.cudagraph-mode FULL_AND_PIECEWISE\n"


def _errors(text: str, version: str) -> list[tuple[str, str]]:
    engine = Engine(Settings(vllm_version=version))
    result = engine.lint("run.sh", text)
    return [(d.code, d.message) for d in engine.checked(result) if d.severity.label == "error"]


@pytest.mark.parametrize("version", ["0.26.0", "0.28.0", "0.33.0"])
@pytest.mark.parametrize("text", [SPEC_DOTTED, SPEC_JSON], ids=["dotted", "json"])
def test_dashed_speculative_keys_are_accepted_from_0_26(text, version):
    assert _errors(text, version) == []


@pytest.mark.parametrize("text", [SPEC_DOTTED, SPEC_JSON], ids=["dotted", "json"])
def test_dashed_speculative_keys_are_rejected_in_0_25(text):
    errors = _errors(text, "0.25.0")
    assert errors and all(code == "SL103" for code, _ in errors)
    assert "--speculative-config has no key 'num-speculative-tokens'" in errors[0][1]


@pytest.mark.parametrize("version", ["0.25.0", "0.33.0"])
def test_other_json_options_keep_their_keys_as_written(version):
    ((code, message),) = _errors(COMPILATION, version)
    assert code == "SL103"
    assert message == ("--compilation-config has no key 'cudagraph-mode'; "
                       "keys after the dot keep underscores: 'cudagraph_mode'")
