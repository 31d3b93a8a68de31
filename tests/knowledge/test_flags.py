"""Facts about `vllm serve` options that users (and servelint's rules) rely on.

Expected values are taken from the shared research notes, which observed them
by running each release's parser: /work/shared/research/vllm-cli-and-oracle.md
(section 2 "0.33.0 in numbers", section 3 "Booleans in 0.33.0" / "Choices that
are not enforced", section 6 table and highlights) and
vllm-flag-history-0.25-0.33.md.  The data under test was generated
independently from the release wheels by tools/knowledge/generate.py.
"""

from __future__ import annotations

import os

import pytest

from servelint import knowledge
from servelint.knowledge import flags

# The ten releases the research notes observed (0.25.0-0.33.0 without the
# 0.25.1 patch release); servelint knows every release from 0.6.0 on
# (tests/knowledge/test_releases.py).
ALL = (
    "0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0",
    "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0",
)


def _in_ten(releases: list[str]) -> list[str]:
    return [r for r in releases if r in ALL]


def test_the_ten_releases_of_the_research_notes_are_known():
    assert set(ALL) <= set(knowledge.RELEASES)
    assert knowledge.NEWEST == knowledge.RELEASES[-1]


# research notes section 6: options (dests) and accepted strings per release
COUNTS = {
    "0.25.0": (272, 366),
    "0.26.0": (276, 372),
    "0.27.0": (284, 383),
    "0.27.1": (284, 383),
    "0.28.0": (286, 386),
    "0.29.0": (294, 397),
    "0.30.0": (302, 407),
    "0.31.0": (313, 422),
    "0.32.0": (318, 430),
    "0.33.0": (322, 485),
}


@pytest.mark.parametrize("version", ALL)
def test_option_and_string_counts(version):
    kn = knowledge.load(version)
    n_options, n_strings = COUNTS[version]
    assert len(kn.options) == n_options
    assert len(kn.by_string) == n_strings
    assert len(kn.by_dest) == n_options
    assert sum(len(o.strings) for o in kn.options) == n_strings


@pytest.mark.parametrize("version", ALL)
def test_indexes_are_consistent(version):
    kn = knowledge.load(version)
    for o in kn.options:
        assert kn.by_dest[o.dest] is o
        for s in o.strings:
            assert kn.by_string[s] is o
        assert sorted(o.visible + o.hidden) == sorted(o.strings)
        assert set(o.negative) <= set(o.strings)
        assert o.takes_value == (o.nargs != 0)
    assert kn.long_strings == sorted(s for s in kn.by_string if s.startswith("--"))
    # the model is positional; --model is hidden from --help but accepted
    assert kn.by_dest["model_tag"].positional and kn.by_dest["model_tag"].strings == []
    assert kn.by_string["--model"].dest == "model"


def test_load_is_cached_and_accepts_a_v_prefix():
    assert knowledge.load("0.33.0") is knowledge.load("0.33.0")
    assert knowledge.load("v0.33.0") is knowledge.load("0.33.0")


def test_unknown_release_is_a_clear_key_error():
    with pytest.raises(KeyError) as e:
        knowledge.load("0.5.5")
    assert isinstance(e.value, knowledge.UnknownRelease)
    assert "0.5.5" in str(e.value) and knowledge.NEWEST in str(e.value)


def test_0_33_0_in_numbers():
    kn = knowledge.load("0.33.0")
    kinds = {}
    for o in kn.options:
        kinds[o.kind] = kinds.get(o.kind, 0) + 1
    # 224 store, 89 EnableDisableAction, 5 store_true, 1 append,
    # 1 LoRAParserAction, 1 DeprecatedLogConfigFileAction, 1 help
    assert kinds == {"store": 224, "bool": 89, "store_true": 5, "append": 1, "custom": 2, "help": 1}
    assert sorted(o.action for o in kn.options if o.kind == "custom") == [
        "DeprecatedLogConfigFileAction",
        "LoRAParserAction",
    ]
    assert sum(1 for o in kn.options if o.choices) == 42
    json_kinds = {}
    for o in kn.options:
        if o.json:
            json_kinds[o.json["kind"]] = json_kinds.get(o.json["kind"], 0) + 1
    assert json_kinds == {"dataclass": 20, "dict": 15, "dict-or-str": 4}
    single_dash = sorted(s for s in kn.by_string if not s.startswith("--"))
    assert len(single_dash) == 24
    assert {"-h", "-tp", "-pp", "-dp", "-q", "-sc", "-cc"} <= set(single_dash)
    assert len(kn.by_string) - len([s for o in kn.options for s in o.visible]) == 50  # hidden aliases
    hri = sorted(o.dest for o in kn.options if o.human_readable_int)
    assert hri == sorted([
        "max_model_len", "max_num_batched_tokens", "max_num_scheduled_tokens",
        "max_num_queued_tokens", "kv_cache_memory_bytes", "safetensors_prefetch_block_size",
    ])


def test_short_aliases():
    kn = knowledge.load("0.33.0")
    assert kn.by_string["-tp"] is kn.by_string["--tensor-parallel-size"]
    assert kn.by_string["-tp"].type == "int"
    # -O3 is rewritten to --optimization-level before argparse sees it
    assert "-O" not in kn.by_string
    assert "--optimization-level" in kn.by_string


def test_use_replayssm_arrives_in_0_27_0():
    assert "--use-replayssm" not in knowledge.load("0.26.0").by_string
    for v in ALL[2:]:
        o = knowledge.load(v).by_string["--use-replayssm"]
        assert o.kind == "bool" and o.dest == "use_replayssm"
        assert o.negative == ["--no-use-replayssm"]
        assert o.default is False
    o = knowledge.load("0.33.0").by_string["--use-replayssm"]
    assert o.defined_at == "vllm/engine/arg_utils.py:1451"
    assert o.group == "CacheConfig"
    assert "ReplaySSM" in o.help
    assert knowledge.history.added_in("--use-replayssm") == "0.27.0"
    assert knowledge.history.removed_in("--use-replayssm") is None
    assert _in_ten(knowledge.history.releases_with("--use-replayssm")) == list(ALL[2:])


def test_replayssm_buffer_len_constraint():
    o = knowledge.load("0.33.0").by_string["--replayssm-buffer-len"]
    assert o.constraints == {"gt": 0}
    assert knowledge.load("0.33.0").by_string["--max-model-len"].constraints == {"ge": -1}


def test_mamba_cache_mode_loses_all_in_0_32_0():
    for v in ("0.28.0", "0.31.0"):
        assert "all" in knowledge.load(v).by_string["--mamba-cache-mode"].choices
    for v in ("0.32.0", "0.33.0"):
        assert knowledge.load(v).by_string["--mamba-cache-mode"].choices == ["align", "none"]
    assert knowledge.load("0.32.0").by_string["--mamba-cache-mode"].deprecated is None
    assert "deprecated" in knowledge.load("0.33.0").by_string["--mamba-cache-mode"].deprecated


def test_enable_disable_spellings_arrive_in_0_33_0():
    new = knowledge.load("0.33.0")
    old = knowledge.load("0.28.0")
    assert "--disable-prefix-caching" not in old.by_string
    o = new.by_string["--disable-prefix-caching"]
    assert o.dest == "enable_prefix_caching"
    assert o.action == "EnableDisableAction(BooleanOptionalAction)"
    assert old.by_dest["enable_prefix_caching"].action == "BooleanOptionalAction"
    # observed by parsing: both the --disable- and the hidden --no- form store False
    assert o.negative == ["--disable-prefix-caching", "--no-enable-prefix-caching"]
    assert o.visible == ["--enable-prefix-caching", "--disable-prefix-caching"]
    assert o.hidden == ["--no-enable-prefix-caching"]
    # for a disable_x dest the --enable- spelling is the negative one
    cascade = new.by_dest["disable_cascade_attn"]
    assert set(cascade.negative) == {"--enable-cascade-attn", "--no-disable-cascade-attn"}
    assert knowledge.history.added_in("--disable-prefix-caching") == "0.33.0"
    # --no-enable-prefix-caching works in every release (the YAML-false workaround)
    assert set(ALL) <= set(knowledge.history.releases_with("--no-enable-prefix-caching"))


def test_store_true_flags_have_no_negative_form():
    kn = knowledge.load("0.33.0")
    o = kn.by_string["--disable-log-stats"]
    assert o.kind == "store_true" and o.negative == [] and o.const is True
    assert "--no-disable-log-stats" not in kn.by_string
    assert sorted(o.dest for o in kn.options if o.kind == "store_true") == sorted(
        ["headless", "grpc", "disable_log_stats", "aggregate_engine_logging",
         "data_parallel_multi_port_external_lb"]
    )


def test_kv_cache_dtype_choices_stop_being_enforced_in_0_33_0():
    for v in ALL[:-1]:
        o = knowledge.load(v).by_string["--kv-cache-dtype"]
        assert o.choices and "auto" in o.choices and "fp8" in o.choices
        assert o.metavar_choices is None
    o = knowledge.load("0.33.0").by_string["--kv-cache-dtype"]
    assert o.choices is None
    assert "fp8" in o.metavar_choices and "auto" in o.metavar_choices
    # nvfp4_4over6 arrives in 0.28.0 (research section 6)
    assert "nvfp4_4over6" not in knowledge.load("0.27.1").by_string["--kv-cache-dtype"].choices
    assert "nvfp4_4over6" in knowledge.load("0.28.0").by_string["--kv-cache-dtype"].choices


def test_mamba_backend_is_never_checked_at_parse_time():
    for v in ALL:
        o = knowledge.load(v).by_string.get("--mamba-backend")
        if o is not None:
            assert o.choices is None and o.type == "str"


def test_tool_call_parser_lists_but_does_not_enforce_choices():
    o = knowledge.load("0.33.0").by_string["--tool-call-parser"]
    assert o.choices is None
    assert "hermes" in o.metavar_choices and "llama3_json" in o.metavar_choices


def test_deprecations_announced_in_0_33_0():
    kn = knowledge.load("0.33.0")
    assert sorted(o.dest for o in kn.options if o.deprecated) == [
        "disable_cascade_attn", "ir_op_priority", "log_config_file", "mamba_cache_mode",
    ]
    assert kn.by_dest["log_config_file"].kind == "custom"


def test_json_options():
    kn = knowledge.load("0.33.0")
    spec = kn.by_string["--speculative-config"].json
    # deliberately plain json.loads; validated later in create_engine_config
    assert spec["kind"] == "dict" and spec["dataclass"] == "SpeculativeConfig"
    assert spec["fields"]["num_speculative_tokens"]["constraints"] == {"gt": 0}
    cc = kn.by_string["-cc"].json
    assert cc["kind"] == "dataclass" and cc["dataclass"] == "CompilationConfig"
    assert "pass_config" in cc["fields"] and "fuse_norm_quant" in cc["fields"]["pass_config"]["fields"]
    assert kn.by_string["--hf-overrides"].json["kind"] in ("dict", "dict-or-str")
    assert kn.by_string["--max-model-len"].json is None


def test_flag_set_changes_between_releases():
    h = knowledge.history
    # research section 6 highlights
    assert _in_ten(h.releases_with("--max-num-partial-prefills")) == ["0.25.0", "0.26.0"]
    assert h.removed_in("--max-num-partial-prefills") == "0.27.0"
    assert h.removed_in("--max-long-partial-prefills") == "0.27.0"
    for s in ("--calculate-kv-scales", "--override-attention-dtype"):
        assert h.removed_in(s) == "0.28.0"
    for s in ("--ec-manager-config", "--mm-processor-device", "--return-sampling-mask"):
        assert h.added_in(s) == "0.28.0"
    assert h.removed_in("--enable-bf16x3-router-gemm") == "0.30.0"
    assert h.releases_with("--enable-mamba-fine-grained-prefix-cache") == ["0.30.0"]
    assert h.added_in("--enable-mamba-fine-grained-prefix-cache") == "0.30.0"
    assert h.removed_in("--enable-mamba-fine-grained-prefix-cache") == "0.31.0"
    for s in ("--monokernel", "--reasoning-effort-map", "--sleep-mode-backend", "--watchdog-config"):
        assert h.added_in(s) == "0.33.0"
    assert h.releases_with("--no-such-flag") == []
    assert h.added_in("--no-such-flag") is None and h.removed_in("--no-such-flag") is None


def test_history_normalises_spellings_like_vllm():
    h = knowledge.history
    assert h.releases_with("--use_replayssm") == h.releases_with("--use-replayssm")
    assert _in_ten(h.releases_with("--max_num_partial_prefills=2")) == ["0.25.0", "0.26.0"]
    assert set(ALL) <= set(h.releases_with("--compilation-config.mode"))
    assert _in_ten(h.releases_with_dest("use_replayssm")) == list(ALL[2:])


def test_history_agrees_with_every_release():
    for v in ALL:
        kn = knowledge.load(v)
        for s in kn.by_string:
            assert v in knowledge.history.releases_with(s), s


def test_prefix_matching():
    kn = knowledge.load("0.33.0")
    assert kn.with_prefix("--max-model") == ["--max-model-len"]
    assert len(kn.with_prefix("--max")) > 1  # argparse: "ambiguous option"
    assert kn.with_prefix("--zzz") == []


@pytest.mark.parametrize("version", ALL)
def test_every_data_file_says_where_it_came_from(version):
    src = knowledge.load(version).source
    assert src["vllm_version"] == version
    assert src["wheel"].startswith(f"vllm-{version}-") and len(src["wheel_sha256"]) == 64
    assert src["platform"] == "CpuPlatform"
    assert src["generator"].startswith("tools/knowledge/generate.py")
    assert src["generated"]
    # releases up to 0.27.1 ignore VLLM_TARGET_DEVICE (research section 1.2)
    assert src["cpu_platform_plugin"] == (ALL.index(version) <= ALL.index("0.27.1"))
    assert knowledge.load(version).architectures.source == src


def test_known_commits():
    # research section 5.1: wheel commit ids
    assert knowledge.load("0.27.0").source["commit"] == "g4bdc8a788"
    assert knowledge.load("0.28.0").source["commit"] == "g2cf0a6915"
    assert knowledge.load("0.33.0").source["commit"] == "g4ba787ec9"


def test_one_release_is_read_alone(monkeypatch):
    # The CLI's cold start (bench/RESULTS.md, section 5) can afford one
    # release's table, not sixty: loading a release reads its own file (and
    # the option rows all releases share) only.
    # How long that takes is measured in bench/, not asserted here.
    read = []
    original = flags._read_json

    def recording(name):
        read.append(name)
        return original(name)

    flags.clear_caches()
    monkeypatch.setattr(flags, "_read_json", recording)
    try:
        knowledge.load("0.33.0")
    finally:
        flags.clear_caches()
    releases_read = [n for n in read if n.startswith("release-")]
    assert releases_read == ["release-0.33.0.json.gz"]


HISTORY_NOTE = os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "research", "vllm-flag-history-0.25-0.33.md"
)


@pytest.mark.skipif(not os.path.exists(HISTORY_NOTE), reason="shared research notes not beside the repo")
def test_0_25_to_0_33_flag_changes_match_the_research_note():
    import re

    text = open(HISTORY_NOTE).read()

    def listed(label):
        m = re.search(rf"^{label}: (.*)$", text, re.M)
        return {s.strip() for s in m.group(1).split(",")}

    old, new = knowledge.load("0.25.0"), knowledge.load("0.33.0")
    added = {o for o in new.options if o.dest not in old.by_dest}
    removed = {o for o in old.options if o.dest not in new.by_dest}
    assert {o.name for o in added} == listed("added flags")
    assert {o.name for o in removed} == listed("removed flags")
    # the note lists every other new spelling, including the --no- forms of new flags
    other_added = set(new.by_string) - set(old.by_string) - {o.name for o in added}
    other_removed = set(old.by_string) - set(new.by_string) - {o.name for o in removed}
    assert other_added == listed("other added option strings \\(aliases/negations\\)")
    assert other_removed == listed("other removed option strings")
