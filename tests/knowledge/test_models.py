"""servelint.knowledge.models: resolving a launch's model to an architecture, offline."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SERVER = Path(__file__).resolve().parents[2] / "server"
try:
    from servelint.knowledge import models
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(SERVER))
    from servelint.knowledge import models

from servelint.knowledge.models import MAX_CONFIG_BYTES, ModelResolution, resolve_model

REPO = Path(__file__).resolve().parents[2]
NO_CACHE = {"HF_HUB_CACHE": "/nonexistent/servelint-test-hub"}


def write_config(directory: Path, architecture: str | None = "LlamaForCausalLM", **fields) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    config = dict(fields)
    if architecture is not None:
        config["architectures"] = [architecture]
    path = directory / "config.json"
    path.write_text(json.dumps(config))
    return path


def fake_hub_repo(hub: Path, model_id: str, architecture: str, commit: str = "a" * 40, main: bool = True) -> Path:
    """The huggingface_hub cache layout: blobs, a snapshot symlinking into them, refs/main."""
    repo = hub / ("models--" + model_id.replace("/", "--"))
    (repo / "blobs").mkdir(parents=True, exist_ok=True)
    blob = repo / "blobs" / f"blob-{commit[:8]}"
    blob.write_text(json.dumps({"architectures": [architecture], "max_position_embeddings": 4096}))
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True, exist_ok=True)
    (snapshot / "config.json").symlink_to(os.path.relpath(blob, snapshot))
    if main:
        (repo / "refs").mkdir(exist_ok=True)
        (repo / "refs" / "main").write_text(commit)
    return snapshot / "config.json"


# --------------------------------------------------------------------------
# 1. Local model directories
# --------------------------------------------------------------------------


def test_absolute_local_directory(tmp_path: Path) -> None:
    path = write_config(tmp_path / "m", "NemotronHForCausalLM", max_position_embeddings=8192)
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None
    assert (res.architecture, res.source, res.inferred) == ("NemotronHForCausalLM", "local-config", False)
    assert res.detail == f"config.json at {path}"
    assert res.config is not None and res.config["max_position_embeddings"] == 8192
    assert res.path == str(path)


@pytest.mark.parametrize("written", ["./m", "m", "../sibling/m"])
def test_relative_paths_resolve_against_the_files_directory(tmp_path: Path, written: str) -> None:
    base = tmp_path / "deploy"
    base.mkdir()
    target = (base / written).resolve()
    write_config(target, "MambaForCausalLM")
    res = resolve_model(written, base_dir=base, env=NO_CACHE)
    assert res is not None and res.architecture == "MambaForCausalLM"
    assert res.source == "local-config"


def test_org_name_directory_next_to_the_file_wins_over_the_table(tmp_path: Path) -> None:
    # vLLM treats an existing directory as a local model even when the
    # string also looks like a Hub id.
    write_config(tmp_path / "Qwen" / "Qwen3-8B", "MyFineTuneForCausalLM")
    res = resolve_model("Qwen/Qwen3-8B", base_dir=tmp_path, env=NO_CACHE)
    assert res is not None and (res.architecture, res.source) == ("MyFineTuneForCausalLM", "local-config")


def test_home_relative_path_uses_the_launch_home(tmp_path: Path) -> None:
    write_config(tmp_path / "models" / "x", "Gemma2ForCausalLM")
    res = resolve_model("~/models/x", env={**NO_CACHE, "HOME": str(tmp_path)})
    assert res is not None and res.architecture == "Gemma2ForCausalLM"


def test_missing_directory_is_explained(tmp_path: Path) -> None:
    res = resolve_model("/mnt/models", env=NO_CACHE)
    assert res is not None and res.architecture is None and not res.resolved
    assert res.source == "local-config"
    assert "/mnt/models does not exist on this machine" in res.detail


def test_dot_path_without_a_base_directory(tmp_path: Path) -> None:
    res = resolve_model("./model", env=NO_CACHE)
    assert res is not None and res.architecture is None
    assert "no file directory" in res.detail


def test_directory_without_config_json(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    res = resolve_model(str(tmp_path / "empty"), env=NO_CACHE)
    assert res is not None and res.architecture is None
    assert res.detail == f"no config.json in {tmp_path / 'empty'}"


def test_mistral_format_checkpoint_is_named(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "params.json").write_text("{}")
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None and "params.json" in res.detail


def test_gguf_file(tmp_path: Path) -> None:
    (tmp_path / "model.Q4_K_M.gguf").write_bytes(b"GGUF")
    res = resolve_model(str(tmp_path / "model.Q4_K_M.gguf"), env=NO_CACHE)
    assert res is not None and res.architecture is None and "GGUF" in res.detail


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not valid JSON (line 1"),
        ("[1, 2]", "holds a JSON list, not an object"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('{"architectures": "LlamaForCausalLM"}', 'unusable "architectures"'),
        ('{"architectures": []}', 'unusable "architectures"'),
    ],
)
def test_invalid_config_json_is_explained(tmp_path: Path, content: str, reason: str) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(content)
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None
    assert reason in res.detail


def test_non_utf8_config(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_bytes(b'{"a": "\xff\xfe"}')
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None and "UTF-8" in res.detail


def test_config_without_architectures_still_gives_its_fields(tmp_path: Path) -> None:
    write_config(tmp_path / "m", None, model_type="llama", max_position_embeddings=2048)
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None
    assert 'no "architectures" field' in res.detail
    assert res.config is not None and res.config["max_position_embeddings"] == 2048


def test_huge_config_json_is_refused_without_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m").mkdir()
    with open(tmp_path / "m" / "config.json", "wb") as fh:
        fh.truncate(MAX_CONFIG_BYTES + 1)  # sparse: no disk used
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k))
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None
    assert "over the 1048576-byte limit" in res.detail
    assert not any(p.endswith("config.json") for p in opened)


def test_config_json_that_is_a_fifo_does_not_hang(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    os.mkfifo(tmp_path / "m" / "config.json")
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE)
    assert res is not None and res.architecture is None and "not a regular file" in res.detail


def test_an_edited_config_is_read_again(tmp_path: Path) -> None:
    path = write_config(tmp_path / "m", "LlamaForCausalLM")
    assert resolve_model(str(tmp_path / "m"), env=NO_CACHE).architecture == "LlamaForCausalLM"
    path.write_text(json.dumps({"architectures": ["MistralForCausalLM"], "pad": "x" * 10}))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10_000_000))
    assert resolve_model(str(tmp_path / "m"), env=NO_CACHE).architecture == "MistralForCausalLM"


# --------------------------------------------------------------------------
# 2. The Hugging Face cache
# --------------------------------------------------------------------------


def test_hf_home_cache_layout(tmp_path: Path) -> None:
    path = fake_hub_repo(tmp_path / "hf" / "hub", "acme/Secret-7B", "AcmeForCausalLM")
    res = resolve_model("acme/Secret-7B", env={"HF_HOME": str(tmp_path / "hf")})
    assert res is not None
    assert (res.architecture, res.source, res.inferred) == ("AcmeForCausalLM", "hf-cache", False)
    assert str(path) in res.detail and "Hugging Face cache" in res.detail
    assert res.config is not None and res.config["max_position_embeddings"] == 4096


def test_hf_hub_cache_wins_over_hf_home(tmp_path: Path) -> None:
    fake_hub_repo(tmp_path / "hub", "acme/Secret-7B", "FromHubCache")
    fake_hub_repo(tmp_path / "hf" / "hub", "acme/Secret-7B", "FromHfHome")
    env = {"HF_HUB_CACHE": str(tmp_path / "hub"), "HF_HOME": str(tmp_path / "hf")}
    assert resolve_model("acme/Secret-7B", env=env).architecture == "FromHubCache"


def test_default_cache_under_home(tmp_path: Path) -> None:
    fake_hub_repo(tmp_path / ".cache" / "huggingface" / "hub", "acme/Secret-7B", "FromDefault")
    assert resolve_model("acme/Secret-7B", env={"HOME": str(tmp_path)}).architecture == "FromDefault"


def test_cached_config_wins_over_the_table(tmp_path: Path) -> None:
    fake_hub_repo(tmp_path / "hub", "Qwen/Qwen3-8B", "PatchedQwen3")
    res = resolve_model("Qwen/Qwen3-8B", env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert res is not None and (res.architecture, res.source) == ("PatchedQwen3", "hf-cache")


def test_cache_lookup_ignores_case(tmp_path: Path) -> None:
    fake_hub_repo(tmp_path / "hub", "Acme/Secret-7B", "AcmeForCausalLM")
    res = resolve_model("acme/secret-7b", env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert res is not None and res.architecture == "AcmeForCausalLM"


def test_refs_main_picks_the_snapshot_and_revision_another(tmp_path: Path) -> None:
    hub = tmp_path / "hub"
    fake_hub_repo(hub, "acme/m", "Old", commit="1" * 40)
    fake_hub_repo(hub, "acme/m", "New", commit="2" * 40)
    (hub / "models--acme--m" / "refs" / "main").write_text("1" * 40)
    (hub / "models--acme--m" / "refs" / "v2").write_text("2" * 40)
    env = {"HF_HUB_CACHE": str(hub)}
    assert resolve_model("acme/m", env=env).architecture == "Old"
    assert resolve_model("acme/m", env=env, revision="v2").architecture == "New"
    assert resolve_model("acme/m", env=env, revision="2" * 40).architecture == "New"


def test_without_refs_the_newest_snapshot_is_used(tmp_path: Path) -> None:
    hub = tmp_path / "hub"
    fake_hub_repo(hub, "acme/m", "Old", commit="1" * 40, main=False)
    fake_hub_repo(hub, "acme/m", "New", commit="2" * 40, main=False)
    snapshots = hub / "models--acme--m" / "snapshots"
    os.utime(snapshots / ("1" * 40), ns=(1, 1))
    assert resolve_model("acme/m", env={"HF_HUB_CACHE": str(hub)}).architecture == "New"


def test_cache_without_the_repo_falls_through_to_the_table(tmp_path: Path) -> None:
    (tmp_path / "hub").mkdir()
    res = resolve_model("Qwen/Qwen3-8B", env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    # The id table knows it, and the bundled config table has its config.json.
    assert res is not None and res.source == "table-config" and res.path is None


# --------------------------------------------------------------------------
# 3. --hf-overrides
# --------------------------------------------------------------------------


def test_hf_overrides_win_over_the_table() -> None:
    res = resolve_model("Qwen/Qwen3-8B", env=NO_CACHE, hf_overrides={"architectures": ["Qwen3ForSequenceClassification"]})
    assert res is not None
    assert (res.architecture, res.source, res.inferred) == ("Qwen3ForSequenceClassification", "hf-overrides", False)
    assert "replacing Qwen3ForCausalLM" in res.detail


def test_hf_overrides_win_over_config_json_and_merge_into_it(tmp_path: Path) -> None:
    # vLLM applies --hf-overrides on top of the loaded config, so the
    # override decides even for a local checkpoint.
    write_config(tmp_path / "m", "LlamaForCausalLM", max_position_embeddings=8192, text_config={"a": 1, "b": 2})
    overrides = {"architectures": ["LlamaBidirectionalModel"], "max_position_embeddings": 4096, "text_config": {"b": 3}}
    res = resolve_model(str(tmp_path / "m"), env=NO_CACHE, hf_overrides=overrides)
    assert res is not None and (res.architecture, res.source) == ("LlamaBidirectionalModel", "hf-overrides")
    assert res.config["max_position_embeddings"] == 4096
    assert res.config["text_config"] == {"a": 1, "b": 3}


def test_hf_overrides_as_json_text_and_for_unknown_ids() -> None:
    res = resolve_model("acme/unknown-thing", env=NO_CACHE, hf_overrides='{"architectures": ["X"]}')
    assert res is not None and (res.architecture, res.source) == ("X", "hf-overrides")


@pytest.mark.parametrize("overrides", [{}, {"num_hidden_layers": 2}, {"architectures": "X"}, {"architectures": []}, "{bad", 42])
def test_hf_overrides_without_usable_architectures_are_ignored(overrides) -> None:
    res = resolve_model("Qwen/Qwen3-8B", env=NO_CACHE, hf_overrides=overrides)
    assert res is not None and res.source != "hf-overrides"
    assert res == resolve_model("Qwen/Qwen3-8B", env=NO_CACHE)


# --------------------------------------------------------------------------
# 4. The bundled table
# --------------------------------------------------------------------------


def test_exact_table_hit() -> None:
    res = resolve_model("tiiuae/Falcon-H1-34B-Instruct", env=NO_CACHE)
    assert res is not None
    assert (res.architecture, res.source, res.inferred) == ("FalconH1ForCausalLM", "table", False)
    assert res.detail == "vLLM 0.33.0 docs: supported_models.md"
    assert res.kind == "generative" and res.config is None


def test_table_lookup_ignores_case() -> None:
    res = resolve_model("NVIDIA/nemotron-h-8b-base-8k", env=NO_CACHE)
    assert res is not None and (res.architecture, res.source) == ("NemotronHForCausalLM", "table")
    assert res.model == "nvidia/Nemotron-H-8B-Base-8K"


def test_test_registry_rows_say_so() -> None:
    res = resolve_model("facebook/opt-125m", env=NO_CACHE)
    assert res is not None and res.detail == "vLLM 0.33.0 tests/models/registry.py"


def test_guessed_rows_carry_their_alternatives() -> None:
    res = resolve_model("CohereLabs/c4ai-command-a-03-2025", env=NO_CACHE)
    assert res is not None and res.alternatives == ("Cohere2ForCausalLM",)
    assert "Cohere2ForCausalLM" in res.detail


def test_rows_needing_hf_overrides_say_so() -> None:
    res = resolve_model("zai-org/glm-4v-9b", env=NO_CACHE)
    assert res is not None and res.needs_hf_overrides == ("GLM4VForCausalLM",)
    assert "--hf-overrides" in res.detail


def test_speculative_draft_rows_are_not_checkpoint_architectures() -> None:
    # nvidia/DeepSeek-V3.2-NVFP4 serves as an MTP draft in vLLM's tests;
    # the draft class is not what its config.json names.
    assert models.table_entry("nvidia/DeepSeek-V3.2-NVFP4").kind == "speculative-draft"
    res = resolve_model("nvidia/DeepSeek-V3.2-NVFP4", env=NO_CACHE)
    assert res is None or res.architecture != "DeepseekV32MTPModel"


def test_table_provenance_is_kept() -> None:
    info = models.table_info()
    assert info["vllm_version"] == "0.33.0"
    assert "build_model_table.py" in info["built_by"]


def test_table_loads_lazily() -> None:
    # Importing the module must not read the model table (the cold start
    # pays for it only when a launch names a model); its load time is
    # measured in bench/, not asserted here.
    code = (
        "import servelint.knowledge.models as m\n"
        "assert m._table.cache_info().currsize == 0, 'loaded at import'\n"
        "m._table()\n"
        "print(m._table.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(SERVER)},
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


@pytest.mark.skipif(not Path("/work/shared/research/vllm-model-ids.json").exists(), reason="shared research not mounted")
def test_generated_table_is_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(REPO / "tools" / "knowledge" / "build_model_table.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# --------------------------------------------------------------------------
# 5. Family inference
# --------------------------------------------------------------------------
#
# Many of these ids also have a bundled config.json, which answers first
# (tests/knowledge/test_model_configs.py); here only the inference counts.


@pytest.fixture
def without_bundled_configs(monkeypatch: pytest.MonkeyPatch) -> None:
    from servelint.knowledge import model_configs

    monkeypatch.setattr(model_configs, "config_entry", lambda model_id: None)


@pytest.mark.usefixtures("without_bundled_configs")
def test_family_inference_from_same_named_ids() -> None:
    res = resolve_model("tiiuae/Falcon-H1-7B-Instruct", env=NO_CACHE)
    assert res is not None
    assert (res.architecture, res.source, res.inferred) == ("FalconH1ForCausalLM", "family", True)
    assert res.detail.startswith("inferred from tiiuae/Falcon-H1-* (3 documented ids")
    assert set(res.evidence) == {"tiiuae/Falcon-H1-0.5B-Base", "tiiuae/Falcon-H1-34B-Base", "tiiuae/Falcon-H1-34B-Instruct"}


@pytest.mark.usefixtures("without_bundled_configs")
def test_llama_31_resolves_through_meta_llamas_ids() -> None:
    res = resolve_model("meta-llama/Llama-3.1-8B-Instruct", env=NO_CACHE)
    assert res is not None and (res.architecture, res.source) == ("LlamaForCausalLM", "family")
    assert all(e.startswith("meta-llama/") for e in res.evidence)


@pytest.mark.usefixtures("without_bundled_configs")
@pytest.mark.parametrize(
    ("model_id", "architecture"),
    [
        ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "Qwen3MoeForCausalLM"),  # A22B: MoE like Qwen3-30B-A3B
        ("Qwen/Qwen3-32B", "Qwen3ForCausalLM"),  # no A..B: dense like Qwen3-8B
        ("meta-llama/Llama-3.3-70B-Instruct", "LlamaForCausalLM"),  # point release of 3 / 3.1 / 3.2
        ("google/gemma-3-12b-it", "Gemma3ForConditionalGeneration"),  # sizes 4b..27b are multimodal
        ("google/gemma-3-270m-it", "Gemma3ForCausalLM"),  # below 1b: text-only
        ("ai21labs/AI21-Jamba-Mini-1.6", "JambaForCausalLM"),
        ("RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "LlamaForCausalLM"),
        ("TheBloke/Mistral-7B-Instruct-v0.2-AWQ", "MistralForCausalLM"),  # across organisations
    ],
)
def test_family_inference_rules(model_id: str, architecture: str) -> None:
    res = resolve_model(model_id, env=NO_CACHE)
    assert res is not None and res.architecture == architecture and res.inferred


@pytest.mark.usefixtures("without_bundled_configs")
@pytest.mark.parametrize(
    "model_id",
    [
        "deepseek-ai/DeepSeek-V3.3",  # nearest family holds DeepseekV3 and DeepseekV32
        "Qwen/Qwen3.6-27B",  # Qwen3 and Qwen3.5 differ
        "google/gemma-3-it",  # gemma-3 splits by size and this one has none
        "zai-org/GLM-4.6",  # GLM-4 ids have two architectures
    ],
)
def test_ambiguous_family_gives_nothing(model_id: str) -> None:
    assert resolve_model(model_id, env=NO_CACHE) is None


@pytest.mark.usefixtures("without_bundled_configs")
@pytest.mark.parametrize(
    "model_id",
    [
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",  # extra words: a different network
        "meta-llama/Llama-3.2-11B-Vision-Instruct",
        "moonshotai/Kimi-K2-Instruct",  # only Kimi-K2.5 is known: a later release does not vouch
        "mistralai/Mistral-Small-24B-Instruct-2501",  # unversioned vs Mistral-Small-3.1
        "microsoft/Phi-3-small-8k-instruct",
        "acme/opt-1.3b",  # one short word is not enough across organisations
    ],
)
def test_family_inference_does_not_guess_wider_than_the_evidence(model_id: str) -> None:
    assert resolve_model(model_id, env=NO_CACHE) is None


@pytest.mark.usefixtures("without_bundled_configs")
def test_inference_can_be_turned_off() -> None:
    assert resolve_model("tiiuae/Falcon-H1-7B-Instruct", env=NO_CACHE, infer=False) is None


# --------------------------------------------------------------------------
# Inputs that are not model ids, and no network
# --------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["", "   ", "$MODEL_NAME", "${MODEL:-x}", "{{ .Values.model }}", "s3://bucket/m", "a--b/c", None, 3, b"x"])
def test_non_ids_resolve_to_nothing(model) -> None:
    assert resolve_model(model, env=NO_CACHE) is None


def test_unknown_id_is_none() -> None:
    assert resolve_model("acme/totally-new-thing", env=NO_CACHE) is None


def test_no_network_and_no_huggingface_hub(tmp_path: Path) -> None:
    code = (
        "import socket, sys\n"
        "def refuse(*a, **k): raise AssertionError('network used')\n"
        "socket.socket = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from servelint.knowledge.models import resolve_model\n"
        f"env = {{'HF_HUB_CACHE': {str(tmp_path)!r}}}\n"
        "for m in ['Qwen/Qwen3-8B', 'tiiuae/Falcon-H1-7B-Instruct', 'acme/unknown', '/mnt/models']:\n"
        "    resolve_model(m, env=env)\n"
        "assert 'huggingface_hub' not in sys.modules and 'transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(SERVER)}, check=True)


def test_results_are_immutable() -> None:
    res = resolve_model("Qwen/Qwen3-8B", env=NO_CACHE)
    with pytest.raises(AttributeError):
        res.architecture = "X"  # type: ignore[misc]


hub_like = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,20}/[A-Za-z0-9][A-Za-z0-9_.-]{0,30}", fullmatch=True)
pathish = st.builds(lambda p, s: p + s, st.sampled_from(["/", "./", "../", "~/", "~", "C:\\", ""]), st.text(max_size=30))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.one_of(st.text(max_size=80), hub_like, pathish), overrides=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2)))
def test_any_string_gives_a_resolution_or_none(tmp_path: Path, model: str, overrides) -> None:
    res = resolve_model(model, base_dir=tmp_path, env=NO_CACHE, hf_overrides=overrides)
    assert res is None or isinstance(res, ModelResolution)
    if res is not None:
        assert res.source in models.SOURCES
        assert res.inferred == (res.source == "family")
