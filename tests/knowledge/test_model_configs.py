"""The bundled config.json table for Hub ids: how a resolution gets it, when
it does not, the rules it makes reportable, and the generator behind it."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "server"
try:
    from servelint.knowledge import model_configs
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(SERVER))
    from servelint.knowledge import model_configs

from servelint.knowledge import models
from servelint.knowledge.model_configs import ConfigEntry, config_entry
from servelint.knowledge.models import resolve_model

sys.path.insert(0, str(REPO / "tools" / "knowledge"))
import build_model_configs as builder  # noqa: E402

NO_CACHE = {"HF_HUB_CACHE": "/nonexistent/servelint-test-hub"}
INPUTS = REPO / "tools" / "knowledge" / "model-configs"


def _entries() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(INPUTS.glob("*.json"))]


def fake_entry(model_id: str, architecture: str, **fields) -> ConfigEntry:
    from types import MappingProxyType

    config = {"architectures": [architecture], **fields}
    return ConfigEntry(model_id, MappingProxyType(config), ("acme/vendor@0123456789ab:cfg/config.json",), ())


# --------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------


def test_a_table_id_gets_its_bundled_config_and_names_the_source() -> None:
    res = resolve_model("meta-llama/Meta-Llama-3.1-70B", env=NO_CACHE)
    assert res is not None
    assert (res.architecture, res.source, res.inferred, res.path) == ("LlamaForCausalLM", "table-config", False, None)
    assert res.config["num_attention_heads"] == 64
    assert res.config["model_type"] == "llama"
    assert res.detail.startswith("bundled copy of its config.json from ai-dynamo/aiconfigurator@")
    assert "meta-llama--Meta-Llama-3.1-70B_config.json" in res.detail
    # The id table's own evidence for the architecture stays in the detail.
    assert "the id table (vLLM 0.33.0 docs" in res.detail


def test_lookup_is_case_insensitive_like_the_hub() -> None:
    res = resolve_model("QWEN/qwen3-8b", env=NO_CACHE)
    assert res is not None and res.source == "table-config" and res.model == "Qwen/Qwen3-8B"
    assert res.config["max_position_embeddings"] == 40960


def test_a_family_inferred_id_with_a_bundled_config_is_no_longer_inferred() -> None:
    # The id table does not list it; family inference names the same
    # architecture as the copy, which settles it.
    assert models.table_entry("meta-llama/Llama-3.1-8B-Instruct") is None
    res = resolve_model("meta-llama/Llama-3.1-8B-Instruct", env=NO_CACHE)
    assert res is not None and (res.source, res.inferred, res.evidence) == ("table-config", False, ())
    assert "(and 1 other copy that agrees)" in res.detail


def test_an_id_only_the_config_table_knows_resolves_from_it() -> None:
    # Neither the id table nor family inference knows Kimi-K2 (only K2.5).
    assert models.table_entry("moonshotai/Kimi-K2-Instruct") is None
    res = resolve_model("moonshotai/Kimi-K2-Instruct", env=NO_CACHE)
    assert (res.architecture, res.source, res.kind) == ("DeepseekV3ForCausalLM", "table-config", None)
    assert res.config["model_type"] == "kimi_k2"


def test_a_config_that_names_another_architecture_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_configs, "config_entry",
                        lambda m: fake_entry("Qwen/Qwen3-8B", "MistralForCausalLM", num_attention_heads=7))
    res = resolve_model("Qwen/Qwen3-8B", env=NO_CACHE)
    assert (res.architecture, res.source, res.config) == ("Qwen3ForCausalLM", "table", None)


def test_a_config_that_disagrees_with_family_inference_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_configs, "config_entry",
                        lambda m: fake_entry("tiiuae/Falcon-H1-7B-Instruct", "LlamaForCausalLM"))
    res = resolve_model("tiiuae/Falcon-H1-7B-Instruct", env=NO_CACHE)
    assert (res.architecture, res.source, res.inferred, res.config) == ("FalconH1ForCausalLM", "family", True, None)


def test_a_config_naming_one_of_the_tables_alternatives_settles_the_pick(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = next(e for e in models._table().by_lower.values() if e.alternatives and e.kind != "speculative-draft")
    other = entry.alternatives[0]
    monkeypatch.setattr(model_configs, "config_entry", lambda m: fake_entry(entry.model_id, other, hidden_size=8))
    res = resolve_model(entry.model_id, env=NO_CACHE)
    assert (res.architecture, res.source, res.alternatives) == (other, "table-config", ())


def test_a_local_directory_still_wins(tmp_path: Path) -> None:
    local = tmp_path / "meta-llama" / "Meta-Llama-3.1-70B"
    local.mkdir(parents=True)
    (local / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "num_attention_heads": 48}))
    res = resolve_model("meta-llama/Meta-Llama-3.1-70B", base_dir=tmp_path, env=NO_CACHE)
    assert (res.source, res.config["num_attention_heads"]) == ("local-config", 48)


def test_the_hugging_face_cache_still_wins(tmp_path: Path) -> None:
    snapshot = tmp_path / "hub" / "models--meta-llama--Meta-Llama-3.1-70B" / "snapshots" / ("c" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "num_attention_heads": 40}))
    res = resolve_model("meta-llama/Meta-Llama-3.1-70B", env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert (res.source, res.config["num_attention_heads"]) == ("hf-cache", 40)


def test_a_cached_config_without_architectures_is_not_replaced_by_the_bundled_one(tmp_path: Path) -> None:
    snapshot = tmp_path / "hub" / "models--Qwen--Qwen3-8B" / "snapshots" / ("d" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps({"max_position_embeddings": 1234}))
    res = resolve_model("Qwen/Qwen3-8B", env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert (res.source, res.config["max_position_embeddings"]) == ("table", 1234)


def test_a_pinned_revision_gets_no_bundled_config() -> None:
    # The copy is of the id's main branch at some date, not of that revision.
    res = resolve_model("meta-llama/Meta-Llama-3.1-70B", env=NO_CACHE, revision="0123abc")
    assert (res.source, res.config) == ("table", None)


def test_hf_overrides_apply_on_top_of_the_bundled_config() -> None:
    res = resolve_model("Qwen/Qwen3-8B", env=NO_CACHE,
                        hf_overrides={"architectures": ["Qwen3ForSequenceClassification"], "num_labels": 2})
    assert (res.architecture, res.source) == ("Qwen3ForSequenceClassification", "hf-overrides")
    assert res.config["num_labels"] == 2 and res.config["num_attention_heads"] == 32
    assert "replacing Qwen3ForCausalLM from bundled copy" in res.detail


def test_quantized_checkpoints_keep_their_quantization_config_without_module_lists() -> None:
    entry = config_entry("Qwen/Qwen3-30B-A3B-FP8")
    q = entry.config["quantization_config"]
    assert (q["quant_method"], q["weight_block_size"]) == ("fp8", [128, 128])
    assert "modules_to_not_convert" not in q
    assert entry.omitted and entry.omitted[0].startswith("quantization_config.modules_to_not_convert (")


def test_every_bundled_config_is_what_the_resolver_hands_out() -> None:
    # No bundled model contradicts the id table or family inference: each
    # comes back as table-config with the copy's architecture.
    problems = []
    for entry in _entries():
        res = resolve_model(entry["model"], env=NO_CACHE)
        arch = entry["config"]["architectures"][0]
        if res is None or res.source != "table-config" or res.architecture != arch:
            problems.append((entry["model"], res and (res.source, res.architecture), arch))
    assert problems == []


def test_unknown_and_odd_ids_get_nothing() -> None:
    for odd in ("", "x", "a/b/c", None, 42, "meta-llama/Meta-Llama-3.1-70B-nope"):
        assert config_entry(odd) is None


def test_a_broken_data_file_reads_as_an_empty_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for content in (b"", b"not gzip", gzip.compress(b"{}\n"), gzip.compress(b"[1]")):
        bad = tmp_path / "bad.json.gz"
        bad.write_bytes(content)
        monkeypatch.setattr(model_configs, "_DATA_FILE", str(bad))
        model_configs._table.cache_clear()
        model_configs._entry.cache_clear()
        try:
            assert config_entry("Qwen/Qwen3-8B") is None
        finally:
            model_configs._table.cache_clear()
            model_configs._entry.cache_clear()
    monkeypatch.undo()
    assert config_entry("Qwen/Qwen3-8B") is not None


def test_the_table_loads_lazily() -> None:
    # Neither importing the resolver nor resolving an id the table lacks
    # parses a model's row; its cost is measured in bench/RESULTS.md.
    code = (
        "import servelint.knowledge.models as m, sys\n"
        "assert 'servelint.knowledge.model_configs' not in sys.modules\n"
        "m.resolve_model('./here', base_dir='/nonexistent')\n"
        "assert 'servelint.knowledge.model_configs' not in sys.modules\n"
        "from servelint.knowledge import model_configs as c\n"
        "m.resolve_model('acme/unknown-model', env={'HF_HUB_CACHE': '/nonexistent'})\n"
        "print(c._table.cache_info().currsize, c._entry.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(SERVER)},
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1"]


# --------------------------------------------------------------------------
# Rules that stayed silent for Hub ids, through the CLI
# --------------------------------------------------------------------------

LAUNCHES = """\
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-expert-parallel
vllm serve google/gemma-3-1b-it --dtype float16
vllm serve Qwen/Qwen3-8B --max-model-len 65536
vllm serve Qwen/Qwen3-8B --max-model-len 40960
vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}'
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3 --revision main
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3 --revision 0123abc
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3 --revision "$REV"
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3 --hf-config-path acme/other-config
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 3 --config-format mistral
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4, "revision": "0123abc"}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --config-format mistral --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}'
"""


def test_rules_report_on_hub_ids_through_the_cli(tmp_path: Path) -> None:
    # vLLM 0.33.0's verdicts for lines 1-7, run by the oracle on directories
    # holding each bundled config.json: lines 1-4 and 7 raise the messages
    # below; 5 and 6 are OK.  Line 8 pins the branch the copy is of.  From
    # line 9 on, vLLM reads another config than the copy (a pinned or
    # unknown revision, another repo's config, params.json), so nothing is
    # known and nothing is reported.
    script = tmp_path / "launch.sh"
    script.write_text(LAUNCHES)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    out = subprocess.run(
        [sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", "--vllm-version", "0.33.0",
         str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    found = {(d["range"]["start"]["line"], d["code"]): d for d in json.loads(out.stdout)["diagnostics"]
             if d["severity"] == "error"}
    assert sorted(found) == [(0, "SL301"), (1, "SL306"), (2, "SL312"), (3, "SL302"), (6, "SL318"), (7, "SL301")]
    assert found[(0, "SL301")]["message"].startswith(
        "Total number of attention heads (64) must be divisible by tensor parallel size (3).")
    assert found[(1, "SL306")]["message"].startswith(
        "Number of experts in the model must be greater than 0 when expert parallelism is enabled.")
    assert found[(2, "SL312")]["message"].startswith(
        "The model type 'gemma3_text' does not support float16. Reason: Numerical instability.")
    assert "User-specified max_model_len (65536) is greater than the derived max_model_len " \
           "(max_position_embeddings=40960.0" in found[(3, "SL302")]["message"]
    assert found[(6, "SL318")]["message"].startswith(
        "Target and draft model should have the same vocabulary size. Target model vocab_size=128256. "
        "Draft model vocab_size=151936.")
    # Each that notes the target's facts says where they came from (SL318
    # adds no note).
    for key, d in found.items():
        if key[1] == "SL318":
            continue
        notes = [r["message"] for r in d.get("relatedInformation", d.get("related", []))]
        assert any("servelint's bundled copy of this model's config.json" in n for n in notes), d


def test_a_deployment_check_estimates_from_the_bundled_copy(tmp_path: Path) -> None:
    sky = tmp_path / "sky.yaml"
    sky.write_text("# servelint: vllm=0.33.0\nresources:\n  accelerators: L4:1\n"
                   "run: vllm serve meta-llama/Llama-3.1-70B-Instruct\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    out = subprocess.run([sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", str(sky)],
                         capture_output=True, text=True, env=env, timeout=120)
    (d,) = [d for d in json.loads(out.stdout)["diagnostics"] if d["code"] == "SL805"]
    assert d["range"]["start"]["line"] == 3
    assert d["message"].startswith("estimated: about 131.4 GiB of weights per GPU (70.6B parameters in bfloat16), "
                                   "more than --gpu-memory-utilization 0.92 × 24 GiB (L4)")


@pytest.mark.parametrize(
    ("flags", "bundled"),
    [
        ("", True),
        ("--revision main", True),
        ("--revision 0123abc", False),
        ("--hf-config-path meta-llama/Llama-3.1-70B-Instruct", True),
        ("--hf-config-path acme/other-config", False),
        ("--config-format hf", True),
        ("--config-format auto", True),
        ("--config-format mistral", False),
    ],
)
def test_the_launch_decides_whether_the_bundled_copy_is_what_vllm_reads(flags: str, bundled: bool) -> None:
    from servelint import argv, knowledge
    from servelint.engine.io import _resolve_model
    from servelint.parse import parse_document

    (launch,) = parse_document("launch.sh", f"vllm serve meta-llama/Llama-3.1-70B-Instruct {flags}\n").launches
    inv = argv.interpret(launch, knowledge.load("0.33.0"))
    res = _resolve_model(inv, None)
    assert res is not None and res.architecture == "LlamaForCausalLM"
    assert (res.source == "table-config") is bundled and (res.config is not None) is bundled


# --------------------------------------------------------------------------
# The generator and its inputs
# --------------------------------------------------------------------------


def test_the_bundled_file_is_what_the_inputs_give() -> None:
    result = subprocess.run([sys.executable, str(REPO / "tools" / "knowledge" / "build_model_configs.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_input_names_its_sources() -> None:
    entries = builder.load_inputs(INPUTS)
    assert len(entries) >= 100
    for entry in entries:
        first = entry["sources"][0]
        assert first["copy"] != "dump" and not first.get("edited")
        for later in entry["sources"][1:]:
            assert later["agrees"]


def test_the_builder_refuses_ids_vllm_may_read_in_mistral_format(tmp_path: Path) -> None:
    # vLLM reads such a repo's params.json, not its config.json.
    entry = {"model": "mistralai/Mistral-7B-Instruct-v0.3", "config": {"architectures": ["MistralForCausalLM"]},
             "sources": [{"repo": "acme/v", "path": "c.json", "commit": "a" * 40, "copy": "file"}]}
    (tmp_path / "mistralai--Mistral-7B-Instruct-v0.3.json").write_text(json.dumps(entry))
    with pytest.raises(builder.InputError, match="params.json"):
        builder.load_inputs(tmp_path)
    res = resolve_model("mistralai/Mistral-7B-Instruct-v0.3", env=NO_CACHE)
    assert res is not None and res.config is None


def test_the_builder_refuses_a_config_the_id_table_contradicts(tmp_path: Path) -> None:
    entry = {"model": "Qwen/Qwen3-8B", "config": {"architectures": ["LlamaForCausalLM"]},
             "sources": [{"repo": "acme/v", "path": "c.json", "commit": "a" * 40, "copy": "file"}]}
    with pytest.raises(builder.InputError, match="names LlamaForCausalLM, the id table Qwen3ForCausalLM"):
        builder.build([entry], builder.id_table_architectures(), "x")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["sources"][0].update(commit="abc"), "full 40-hex commit"),
        (lambda e: e["sources"][0].update(copy="python-dict"), "say where in the file"),
        (lambda e: e["sources"].append(dict(e["sources"][0])), "must say how it agrees"),
        (lambda e: e["config"].pop("architectures"), "no usable architectures"),
        (lambda e: e.update(model="no-org"), "must be a Hub id"),
        (lambda e: e["sources"][0].update(edited=["x"]), "only for a later copy"),
    ],
)
def test_the_builder_rejects_malformed_inputs(tmp_path: Path, change, message: str) -> None:
    entry = {"model": "acme/m", "config": {"architectures": ["LlamaForCausalLM"]},
             "sources": [{"repo": "acme/v", "path": "c.json", "commit": "a" * 40, "copy": "file"}]}
    change(entry)
    name = entry["model"].replace("/", "--") + ".json"
    (tmp_path / name).write_text(json.dumps(entry))
    with pytest.raises(builder.InputError, match=message):
        builder.load_inputs(tmp_path)


def test_the_builder_drops_module_lists_and_says_so() -> None:
    config = {"architectures": ["X"], "quantization_config": {
        "quant_method": "fp8", "ignore": [f"model.layers.{i}.mlp.gate" for i in range(200)], "small": ["lm_head"]}}
    stripped, omitted = builder.strip_blobs(config)
    assert stripped["quantization_config"] == {"quant_method": "fp8", "small": ["lm_head"]}
    assert omitted == [f"quantization_config.ignore (200 entries, {len(json.dumps(config['quantization_config']['ignore'], separators=(',', ':')))} bytes)"]
    assert "ignore" in config["quantization_config"]  # the input is left alone


def test_render_and_read_back_round_trip() -> None:
    table = builder.build(builder.load_inputs(INPUTS), builder.id_table_architectures(), "x")
    again = builder.read_table(builder.render(table))
    assert again["models"] == table["models"] and again["sources"] == table["sources"]


def test_a_source_copy_is_read_the_way_its_kind_says() -> None:
    py = "X = 1\nPRESETS = {'a.b': {'architectures': ['A'], 'n': None}}\nS = '{\"architectures\": [\"B\"]}'\n"
    assert builder.extract(py, {"copy": "python-dict", "at": ["PRESETS", "a.b"]}) == {"architectures": ["A"], "n": None}
    assert builder.extract(py, {"copy": "json-string", "at": ["S"]}) == {"architectures": ["B"]}
    md = "Llama\n{\n \"architectures\": [\"L\"]\n}\n\nQwen\n{\"architectures\": [\"Q\"]}\n"
    assert builder.extract(md, {"copy": "text-block", "at": ["Qwen"]}) == {"architectures": ["Q"]}
    assert builder.extract('{"m": {"architectures": ["M"]}}', {"copy": "file", "at": ["m"]}) == {"architectures": ["M"]}
