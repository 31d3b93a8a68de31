"""The ReplaySSM rules (SL201-SL209), release by release.

Expectations come from reading each release's ``validate_mamba_cached_kernel``
(vllm/config/vllm.py; the rules' docstrings cite the lines): every check
that fails is reported, not only the first one vLLM would raise.  Cases the
oracle can run are also in ``tests/conformance/replayssm`` and compared with
vLLM itself; the Kimi KDA cases are here only (the oracle's environment
cannot inspect that model class).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from servelint import knowledge
from servelint.diagnostics import Severity
from servelint.engine import Engine
from servelint.rules import rule_classes
from servelint.settings import Settings

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
sys.path.insert(0, str(CONFORMANCE))

from harness import build_launch, lint_argv, model_path, resolve_case_argv  # noqa: E402

N, M2, K, L = (model_path(m) for m in ("nemotronh", "mamba2", "kimi-linear", "llama"))
RS = "--use-replayssm"
NG = '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":3}'
KV = '{"kv_connector":"ExampleConnector","kv_role":"kv_both"}'
SPEC = ["--speculative-config", NG]

ARCH_A = "--use-replayssm is only supported for Nemotron-H models (got architecture {!r})"
ARCH = "--use-replayssm is not supported for architecture {!r}"
ALL = "--use-replayssm supports prefix caching only in align mode; pass --mamba-cache-mode align"
NOSPEC = "--use-replayssm does not support speculative decoding"
TRITON = "--use-replayssm requires --mamba-backend triton"
TRITON_FI = "--use-replayssm requires --mamba-backend triton or flashinfer"
KVMSG = "--use-replayssm is incompatible with KV connectors (P/D disaggregation, KV cache offload)"
KIMI = "RecoverSSM is only supported for Kimi-K3 KDA"
RS_SR = ("RecoverSSM supports bfloat16/float32 SSM state caches, not --enable-mamba-cache-stochastic-rounding, "
         "which requires an explicit float16 cache")
RS_PP = "RecoverSSM currently requires pipeline_parallel_size=1"
RS_V2_ALIGN = "RecoverSSM with align mode requires VLLM_USE_V2_MODEL_RUNNER=1"
RS_V2_PC = "RecoverSSM with prefix caching requires VLLM_USE_V2_MODEL_RUNNER=1"
RS_TRITON = "RecoverSSM requires --mamba-backend triton"
V1 = "Triton ReplaySSM requires Model Runner V1; use --mamba-backend flashinfer or Model Runner V1"
FI_ALIGN_D = "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none"
FI_ALIGN_E = "FlashInfer ReplaySSM does not support prefix caching yet; use --disable-prefix-caching"
BUF16 = "FlashInfer ReplaySSM requires --replayssm-buffer-len <= 16"
SPEC_NONE_D = "FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none"
SPEC_NONE_E = "FlashInfer ReplaySSM speculative decoding does not support prefix caching; use --disable-prefix-caching"
SPEC_FI = "Mamba2 ReplaySSM speculative decoding requires --mamba-backend flashinfer"
V2_TRITON = "Model Runner V2 requires Triton."

A = ("0.27.0", "0.27.1", "0.28.0")
C = ("0.30.0", "0.31.0")
DE = ("0.32.0", "0.33.0")


def needs(version: str) -> None:
    if version not in knowledge.RELEASES:
        pytest.skip(f"no servelint knowledge for vLLM {version} yet")


def family(results):
    """(code, vLLM message) of this family's findings."""
    return sorted((r.rule.code, r.finding.vllm_message) for r in results if r.rule.code.startswith("SL2"))


def run(version, argv, env=None, target="cuda"):
    needs(version)
    return lint_argv(argv, version, env=env, target=target)


# (releases, target, argv, env, expected findings)
TABLE = [
    # Variant A: independent ifs, every one reported.
    (A, "cuda", [N, RS], None, []),
    (("0.27.0", "0.27.1"), "cuda", [N, RS, "--enable-prefix-caching"], None, [("SL203", ALL)]),
    (("0.28.0",), "cuda", [N, RS, "--enable-prefix-caching"], None, []),
    (("0.27.0", "0.27.1"), "cuda", [N, RS, "--mamba-cache-mode", "all"], None, []),
    (("0.28.0",), "cuda", [N, RS, "--mamba-cache-mode", "all"], None, [("SL203", ALL)]),
    (A, "cpu", [N, RS, "--enable-prefix-caching", "--mamba-cache-mode", "all", *SPEC, "--mamba-backend", "cpu",
                "--kv-transfer-config", KV], None,
     [("SL202", NOSPEC), ("SL203", ALL), ("SL204", TRITON), ("SL207", KVMSG)]),
    (A, "cpu", [M2, RS, *SPEC, "--mamba-backend", "cpu"], None, [("SL201", ARCH_A.format("Mamba2ForCausalLM"))]),
    (A, "cpu", ["acme/no-such-model-anywhere", RS, *SPEC], None, [("SL202", NOSPEC)]),
    (A, "cpu", [N, RS, "--kv-offloading-size", "4"], None, [("SL207", KVMSG)]),
    (A, "cpu", [N, RS, "--no-use-replayssm", *SPEC], None, []),
    # Variant B (0.29.0): speculative decoding is RecoverSSM, Kimi only.
    (("0.29.0",), "cuda", [N, RS, *SPEC], None, [("SL202", KIMI)]),
    (("0.29.0",), "cuda", [N, RS, *SPEC, "--mamba-backend", "cpu", "--kv-offloading-size", "4"], None,
     [("SL202", KIMI), ("SL204", TRITON), ("SL207", KVMSG)]),
    (("0.29.0",), "cuda", [N, RS, "--mamba-cache-mode", "all"], None, [("SL203", ALL)]),
    (("0.29.0",), "cuda", [N, RS, "--mamba-backend", "flashinfer"], None, [("SL204", TRITON)]),
    (("0.29.0",), "cuda", [K, RS, *SPEC, "-pp", "2", "--enable-mamba-cache-stochastic-rounding"], None,
     [("SL206", RS_V2_ALIGN), ("SL208", RS_PP), ("SL208", RS_SR)]),
    (("0.29.0",), "cuda", [K, RS, *SPEC], {"VLLM_USE_V2_MODEL_RUNNER": "1"}, []),
    (("0.29.0",), "cuda", [K, RS, *SPEC, "--no-enable-prefix-caching"], None, []),
    # Kimi models lack SupportsMambaPrefixCaching, so 'all' falls back to 'align'
    # (MambaModelConfig) and RecoverSSM's "only none and align" cannot fire.
    (("0.29.0",), "cuda", [K, RS, *SPEC, "--mamba-cache-mode", "all", "--enable-prefix-caching"],
     {"VLLM_USE_V2_MODEL_RUNNER": "1"}, []),
    # Variant C (0.30.0-0.31.0): FlashInfer, Model Runner V1 for Triton.
    (C, "cuda", [N, RS], None, [("SL206", V1)]),
    (C, "cuda", [N, RS], {"VLLM_USE_V2_MODEL_RUNNER": "0"}, []),
    (C, "cpu", [N, RS], None, []),
    (C, "cpu", [N, RS], {"VLLM_USE_V2_MODEL_RUNNER": "1"}, [("SL206", V1), ("SL209", V2_TRITON)]),
    (C, "cuda", [N, RS, "--mamba-backend", "flashinfer"], None, [("SL203", FI_ALIGN_D)]),
    (C, "cuda", [N, RS, "--mamba-backend", "FlashInfer", "--no-enable-prefix-caching"], None, []),
    (C, "cuda", [N, RS, "--mamba-cache-mode", "all"], None, [("SL203", ALL)]),
    (C, "cuda", [N, RS, "--mamba-cache-mode", "all", "--mamba-backend", "cpu"], None,
     [("SL203", ALL), ("SL204", TRITON_FI)]),
    (C, "cuda", [N, RS, *SPEC, "--kv-transfer-config", KV], None, [("SL202", KIMI), ("SL207", KVMSG)]),
    (C, "cuda", [K, RS, *SPEC, "--mamba-backend", "flashinfer"], None, [("SL204", RS_TRITON), ("SL206", RS_V2_ALIGN)]),
    # Variants D/E (0.32.0/0.33.0): Mamba2 speculative decoding with FlashInfer.
    (DE, "cuda", [N, RS], None, [("SL206", V1)]),
    (DE, "cpu", [N, RS], None, []),
    (("0.32.0",), "cuda", [N, RS, *SPEC], None, [("SL203", SPEC_NONE_D), ("SL204", SPEC_FI)]),
    (("0.33.0",), "cuda", [N, RS, *SPEC], None, [("SL203", SPEC_NONE_E), ("SL204", SPEC_FI)]),
    (DE, "cuda", [N, RS, *SPEC, "--no-enable-prefix-caching", "--mamba-backend", "flashinfer"], None, []),
    (DE, "cuda", [N, RS, *SPEC, "--no-enable-prefix-caching", "--mamba-backend", "flashinfer",
                  "--replayssm-buffer-len", "2"], None,
     [("SL205", "FlashInfer ReplaySSM speculative decoding requires --replayssm-buffer-len >= 1 + "
                "num_speculative_tokens (4); got 2")]),
    (("0.32.0",), "cuda", [N, RS, "--mamba-backend", "flashinfer", "--replayssm-buffer-len", "32"], None,
     [("SL203", FI_ALIGN_D), ("SL205", BUF16)]),
    (("0.33.0",), "cuda", [N, RS, "--mamba-backend", "flashinfer", "--replayssm-buffer-len", "32"], None,
     [("SL203", FI_ALIGN_E), ("SL205", BUF16)]),
    (DE, "cpu", [N, RS, "--mamba-backend", "cpu", "--kv-offloading-size", "4"], None,
     [("SL204", TRITON_FI), ("SL207", KVMSG)]),
    (("0.32.0",), "cuda", [K, RS, *SPEC, "--kv-transfer-config", KV], None, [("SL207", KVMSG)]),
    (("0.33.0",), "cuda", [K, RS, *SPEC, "--kv-transfer-config", KV], None, []),
    (("0.33.0",), "cuda", [K, RS, "--kv-transfer-config", KV], {"VLLM_USE_V2_MODEL_RUNNER": "0"}, [("SL207", KVMSG)]),
    (("0.32.0",), "cuda", [K, RS, *SPEC, "--enable-mamba-cache-stochastic-rounding", "--mamba-backend", "cpu", "-pp", "2"],
     {"VLLM_USE_V2_MODEL_RUNNER": "0"},
     [("SL204", RS_TRITON), ("SL206", RS_V2_ALIGN), ("SL208", RS_PP), ("SL208", RS_SR)]),
    (("0.33.0",), "cuda", [K, RS, *SPEC, "--enable-mamba-cache-stochastic-rounding", "--mamba-backend", "cpu", "-pp", "2"],
     {"VLLM_USE_V2_MODEL_RUNNER": "0"},
     [("SL204", RS_TRITON), ("SL206", RS_V2_PC), ("SL208", RS_PP), ("SL208", RS_SR)]),
    (DE, "cuda", [K, RS], None, [("SL206", V1)]),
    (DE, "cuda", [L, RS, *SPEC], None, [("SL201", ARCH.format("LlamaForCausalLM"))]),
]

PARAMS = [
    pytest.param(v, target, argv, env, expected, id=f"{v}-{target}-{i}")
    for i, (releases, target, argv, env, expected) in enumerate(TABLE)
    for v in releases
]


@pytest.mark.parametrize("version,target,argv,env,expected", PARAMS)
def test_release_checks(version, target, argv, env, expected):
    got = [f for f in family(run(version, argv, env, target)) if f[0] != "SL210"]
    assert got == sorted(expected)


def test_every_finding_is_anchored_on_use_replayssm():
    argv = [N, RS, "--mamba-backend", "cpu", "--kv-offloading-size", "4", *SPEC]
    results = [r for r in run("0.33.0", argv, target="cpu") if r.rule.code.startswith("SL20")]
    assert len(results) >= 2
    text, launch = build_launch(argv)
    for r in results:
        assert text[r.finding.span.start : r.finding.span.end] == RS
        assert r.finding.message.startswith(r.finding.vllm_message)
        assert r.finding.flag == "--use-replayssm"


def test_related_points_at_the_partner_flags():
    argv = [N, RS, "--mamba-backend", "cpu", "--kv-offloading-size", "4"]
    text, _ = build_launch(argv)
    by_code = {r.rule.code: r.finding for r in run("0.33.0", argv, target="cpu")}
    (backend,) = by_code["SL204"].related
    assert text[backend.span.start : backend.span.end] == "--mamba-backend cpu"
    (kv,) = by_code["SL207"].related
    assert text[kv.span.start : kv.span.end] == "--kv-offloading-size 4"
    assert "--kv-offloading-size creates a KV offloading connector" in by_code["SL207"].message


def test_backend_fix_changes_only_the_value():
    argv = [N, RS, "--mamba-backend", "cpu"]
    (r,) = [r for r in run("0.33.0", argv, target="cpu") if r.rule.code == "SL204"]
    (fix,) = r.finding.fixes
    # A new value changes what the launch runs: unsafe, never applied by --fix (README, Fixes).
    assert fix.title == "Use --mamba-backend triton" and not fix.safe and fix.preferred
    text, _ = build_launch(argv)
    (edit,) = fix.edits
    assert text[: edit.span.start] + edit.new_text + text[edit.span.end :] == f"vllm serve {N} {RS} --mamba-backend triton\n"


def test_default_runner_note_says_how_to_get_v1():
    (r,) = run("0.33.0", [N, RS], target="cuda")
    assert r.rule.code == "SL206"
    assert r.finding.message == (
        V1 + " (vLLM 0.33.0 picks Model Runner V2 by default on CUDA; set VLLM_USE_V2_MODEL_RUNNER=0 for V1)"
    )


def test_env_var_is_related_when_it_forces_v2():
    env = {"VLLM_USE_V2_MODEL_RUNNER": "1"}
    (r,) = run("0.33.0", [N, RS], env=env, target="cpu")
    text, launch = build_launch([N, RS], env)
    assert [text[x.span.start : x.span.end] for x in r.finding.related] == ["VLLM_USE_V2_MODEL_RUNNER=1"]


def test_unparseable_env_value_leaves_the_runner_unknown():
    assert family(run("0.33.0", [N, RS], env={"VLLM_USE_V2_MODEL_RUNNER": "yes"}, target="cuda")) == []


def test_prefix_caching_default_is_explained():
    (r,) = [r for r in run("0.33.0", [N, RS, "--mamba-backend", "flashinfer"]) if r.rule.code == "SL203"]
    assert r.finding.message == FI_ALIGN_E + " (prefix caching is on by default for hybrid models in vLLM 0.33.0)"


def test_written_prefix_caching_flag_gets_a_rename_fix():
    argv = [N, RS, "--mamba-backend", "flashinfer", "--enable-prefix-caching"]
    (r,) = [r for r in run("0.33.0", argv) if r.rule.code == "SL203"]
    (fix,) = r.finding.fixes
    assert fix.title == "Use --disable-prefix-caching" and not fix.safe
    text, _ = build_launch(argv)
    (edit,) = fix.edits
    assert text[edit.span.start : edit.span.end] == "--enable-prefix-caching"


def test_inferred_architecture_lowers_severity_and_says_so():
    (r,) = run("0.33.0", ["state-spaces/mamba-2.7b", RS])
    assert r.rule.code == "SL201"
    assert r.severity == Severity.WARNING
    assert r.finding.vllm_message == ARCH.format("MambaForCausalLM")
    assert "architecture MambaForCausalLM inferred from state-spaces/mamba-*" in r.finding.message


def test_known_architecture_from_the_table_is_an_error():
    (r,) = run("0.33.0", ["mistralai/Mamba-Codestral-7B-v0.1", RS])
    assert r.rule.code == "SL201" and r.severity == Severity.ERROR


def test_unknown_architecture_keeps_architecture_checks_silent():
    # Unresolved model: nothing that needs the architecture is reported; the
    # speculative branch of 0.33.0 depends on it (Kimi or not), so it is silent.
    assert family(run("0.33.0", ["acme/no-such-model-anywhere", RS, *SPEC], target="cpu")) == []
    # The KV connector check does not depend on it.
    assert family(run("0.33.0", ["acme/no-such-model-anywhere", RS, "--kv-offloading-size", "1"], target="cpu")) == [
        ("SL207", KVMSG)
    ]


def test_value_known_only_at_run_time_is_not_judged():
    from servelint import argv as argv_mod
    from servelint.engine.io import _resolve_model
    from servelint.rules import Context, invocation_rules

    needs("0.33.0")
    text, launch = build_launch([N, RS, "--mamba-backend", "cpu"])
    launch.args[-1].exact = False
    inv = argv_mod.interpret(launch, knowledge.load("0.33.0"))
    ctx = Context(inv, path="/x.sh", base_dir="/", target="cpu", resolve_model=_resolve_model, text_of=lambda p: text)
    found = [f for rule in invocation_rules() if rule.code.startswith("SL20") for f in rule.check(ctx)]
    assert found == []


def test_yaml_config_anchor_is_the_key(tmp_path):
    needs("0.33.0")
    text = (
        "# servelint: vllm=0.33.0\n"
        f"model: {N}\n"
        "use_replayssm: true\n"
        "mamba-backend: cpu\n"
    )
    path = tmp_path / "serve.yaml"
    result = Engine(Settings(use_installed_vllm=False, target="cpu")).lint(str(path), text)
    (d,) = [d for d in result.diagnostics if d.code == "SL204"]
    assert text[d.span.start : d.span.end] == "use_replayssm"
    (rel,) = d.related
    assert text[rel.span.start : rel.span.end].startswith("mamba-backend")


def test_launch_with_config_file_anchors_in_that_file():
    needs("0.33.0")
    cfg = str((CONFORMANCE / "replayssm" / "yaml" / "rs_cpu_backend.yaml").resolve())
    (r,) = [r for r in run("0.33.0", [N, "--config", cfg], target="cpu") if r.rule.code.startswith("SL2")]
    assert r.finding.path == cfg
    cfg_text = Path(cfg).read_text()
    assert cfg_text[r.finding.span.start : r.finding.span.end] == "use-replayssm"


@pytest.mark.parametrize("version", ["0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0",
                                     "0.31.0", "0.32.0", "0.33.0"])
def test_forced_v2_without_triton(version):
    env = {"VLLM_USE_V2_MODEL_RUNNER": "1"}
    cpu = [r for r in run(version, [L], env=env, target="cpu") if r.rule.code == "SL209"]
    if version == "0.33.0":
        assert cpu == []  # 0.33.0 no longer checks Triton when V2 is forced
    else:
        (r,) = cpu
        assert r.finding.vllm_message == V2_TRITON
        text, _ = build_launch([L], env)
        assert text[r.finding.span.start : r.finding.span.end] == "VLLM_USE_V2_MODEL_RUNNER=1"
    assert [r for r in run(version, [L], env=env, target="cuda") if r.rule.code == "SL209"] == []
    assert [r for r in run(version, [L], env={"VLLM_USE_V2_MODEL_RUNNER": "0"}, target="cpu")
            if r.rule.code == "SL209"] == []


def test_no_findings_before_the_flag_existed():
    for version in ("0.25.0", "0.26.0"):
        if version in knowledge.RELEASES:
            assert [r for r in lint_argv([N, RS], version) if r.rule.code.startswith("SL20")] == []


# -- declared inputs ----------------------------------------------------------

FAMILY_RULES = [c for c in rule_classes() if c.code.startswith("SL2")]


def _family_cases():
    suite = CONFORMANCE / "replayssm"
    cases = json.loads((suite / "cases.json").read_text())
    out = []
    for name, case in cases.items():
        case = case if isinstance(case, dict) else {"argv": case}
        if "--config" in case["argv"]:
            continue
        out.append((name, resolve_case_argv(case["argv"], suite), case.get("env")))
    return out


@pytest.mark.parametrize("version", ["0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"])
@pytest.mark.parametrize("target", ["cuda", "cpu"])
def test_rules_read_only_what_they_declare(target, version):
    """Dropping a flag or variable a rule does not declare never changes its findings.

    The engine re-runs a rule only when a declared input changed, so an
    undeclared input would leave stale diagnostics in the editor.
    """
    from servelint import argv as argv_mod

    needs(version)
    kn = knowledge.load(version)
    for name, argv, env in _family_cases():
        base = lint_argv(argv, version, env=env, target=target)
        _, launch = build_launch(argv, env)
        inv = argv_mod.interpret(launch, kn)
        for flag in inv.flags:
            i = launch.args.index(flag.word)
            dropped = argv[:i] + argv[i + 1 + len(flag.values):]
            after = lint_argv(dropped, version, env=env, target=target)
            for cls in FAMILY_RULES:
                if flag.dest in cls.reads or "*" in cls.reads:
                    continue
                b = [r.finding.message for r in base if r.rule.code == cls.code]
                a = [r.finding.message for r in after if r.rule.code == cls.code]
                assert a == b, f"{cls.name} changes when {flag.written} is dropped from {name} but does not read {flag.dest}"
        for var in env or {}:
            after = lint_argv(argv, version, env={k: v for k, v in env.items() if k != var}, target=target)
            for cls in FAMILY_RULES:
                if var in cls.reads:
                    continue
                b = [r.finding.message for r in base if r.rule.code == cls.code]
                a = [r.finding.message for r in after if r.rule.code == cls.code]
                assert a == b, f"{cls.name} depends on {var} but does not read it"
