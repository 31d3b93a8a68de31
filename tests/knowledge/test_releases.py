"""Every release from 0.6.0 on: the tables' coverage, entry points, parser
facts and history, as users see them through ``servelint.knowledge``.

Expected values are vLLM's own, observed by running each release
(``tools/knowledge/dump_release.py``) and checked here against the releases'
source: each test names the file and line of the release it rests on.  No
test names the newest release: the list of releases comes from the tables.
"""

from __future__ import annotations

import pytest

from servelint import knowledge
from servelint.knowledge import history, images
from servelint.knowledge.versions import version_key

RELEASES = knowledge.RELEASES
# Releases users pin in real files (issue 19), patch releases included.
PINNED = ("0.6.0", "0.6.3.post1", "0.8.5", "0.8.5.post1", "0.9.0", "0.10.1", "0.10.1.1", "0.11.0",
          "0.17.0", "0.19.0", "0.20.1")


def test_every_release_from_0_6_0_is_known_in_order():
    assert RELEASES[0] == "0.6.0"
    assert list(RELEASES) == sorted(RELEASES, key=version_key)
    assert knowledge.NEWEST == RELEASES[-1]
    for v in PINNED:
        assert v in RELEASES
    # every minor from 0.6 to the newest
    minors = {version_key(v)[:2] for v in RELEASES}
    newest_minor = version_key(RELEASES[-1])[1]
    assert minors == {(0, m) for m in range(6, newest_minor + 1)}


@pytest.mark.parametrize("version", RELEASES)
def test_each_release_says_where_it_came_from(version):
    kn = knowledge.load(version)
    src = kn.source
    assert src["vllm_version"] == version
    assert src["wheel"].startswith(f"vllm-{version}-") and len(src["wheel_sha256"]) == 64
    assert src["generator"].startswith("tools/knowledge/generate.py")
    assert kn.entry == "serve" and "serve" in kn.entries and "api_server" in kn.entries
    assert kn.architectures.source == src
    assert len(kn.architectures) > 50


@pytest.mark.parametrize("version", RELEASES)
def test_indexes_are_consistent_for_every_entry_point(version):
    rf = knowledge.release_file(version)
    for entry in rf.entries:
        kn = knowledge.load(version, entry)
        assert kn.entry == entry and kn.version == version
        for o in kn.options:
            assert kn.by_dest[o.dest] is o
            for s in o.strings:
                assert kn.by_string[s] is o
            assert set(o.negative) <= set(o.strings)
        assert kn.long_strings == sorted(s for s in kn.by_string if s.startswith("--"))
        if entry != "serve":
            assert "--model" in kn.by_string  # EngineArgs.add_cli_args


def test_the_model_on_the_api_server_entry_point():
    # vllm/entrypoints/openai/api_server.py __main__: make_arg_parser(FlexibleArgumentParser());
    # --model is the model there, and from 0.10.0 make_arg_parser adds the
    # model_tag positional for every entry point.
    for v in RELEASES:
        api = knowledge.load(v, "api_server")
        serve = knowledge.load(v)
        assert ("model_tag" in api.by_dest) == (version_key(v) >= (0, 10, 0)), v
        assert serve.by_dest["model_tag"].positional
        assert api.facts["model_flag"]["outcome"] == "flag"
    # 0.9.x leaves --model out of the serve parser when argv holds "serve"
    # (vllm/engine/arg_utils.py 0.9.0: `if 'serve' not in sys.argv[1:] and
    # '--help' not in sys.argv[1:]`); its FlexibleArgumentParser rejects it first.
    assert "--model" not in knowledge.load("0.9.0").by_string
    assert knowledge.load("0.9.0").facts["model_flag"]["outcome"] == "rejected"


def test_model_flag_after_vllm_serve_per_release():
    # 0.6.x vllm/scripts.py serve(): "if args.model != EngineArgs.model: raise ValueError(...)";
    # model_tag is a required positional there.
    facts = knowledge.load("0.6.0").facts
    assert facts["model_positional"] == "required"
    assert facts["model_flag"]["outcome"] == "rejected" and facts["model_flag"]["stage"] == "serve"
    assert "positional argument instead of via the `--model` option" in facts["model_flag"]["message"]
    # 0.8.5: FlexibleArgumentParser.parse_args raises it while parsing
    facts = knowledge.load("0.8.5").facts
    assert facts["model_positional"] == "optional"
    assert facts["model_flag"]["outcome"] == "rejected" and facts["model_flag"]["stage"] == "parse"
    # the newest: moved to the positional with a warning that names its removal
    facts = knowledge.load(RELEASES[-1]).facts
    assert facts["model_flag"]["outcome"] == "moved"
    assert "will be removed" in facts["model_flag"]["message"]
    # the change happens once: rejected up to some release, moved after it
    outcomes = [knowledge.load(v).facts["model_flag"]["outcome"] for v in RELEASES]
    first_moved = outcomes.index("moved")
    assert set(outcomes[:first_moved]) == {"rejected"} and set(outcomes[first_moved:]) == {"moved"}


def test_parser_facts_that_changed():
    old, new = knowledge.load("0.6.0").facts, knowledge.load(RELEASES[-1]).facts
    # -O3 arrived with the compilation config; 0.6.0 does not rewrite it
    assert old["opt_level"] is False and new["opt_level"] is True
    assert new["dotted_keys"] is True
    assert new["config"] == "inserted" and old["config"] == "inserted"
    assert new["config_equals"] == "ignored"


def test_history_covers_the_old_releases():
    # --swap-space: in 0.6.0, gone by the newest release
    have = history.releases_with("--swap-space")
    assert have[0] == "0.6.0" and RELEASES[-1] not in have
    assert history.removed_in("--swap-space") is not None
    # --use-replayssm arrived in 0.27.0 (research note, section 4)
    assert history.added_in("--use-replayssm") == "0.27.0"
    for v in RELEASES:
        kn = knowledge.load(v)
        for s in list(kn.by_string)[:40]:
            assert v in history.releases_with(s), (v, s)


def test_dropped_flags_say_what_became_of_them():
    change = history.change("--swap-space")
    assert change["kind"] in ("removed", "renamed", "moved")
    assert version_key(change["last"]) < version_key(change["release"])
    assert change["release"] == history.removed_in("--swap-space")
    assert history.change("--max-model-len") is None  # still accepted
    assert history.change("--no-such-flag") is None


def test_image_entry_points():
    # docker/Dockerfile at 0.8.5: ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    got = images.entry_point("vllm/vllm-openai:v0.8.5", "0.8.5")
    assert got.entry == "api_server" and got.how == "dockerfile"
    assert got.entrypoint == ("python3", "-m", "vllm.entrypoints.openai.api_server")
    assert got.where.startswith("docker/Dockerfile:")
    # the newest runs `vllm serve`
    assert images.entry_point("vllm/vllm-openai:latest", RELEASES[-1]).entry == "serve"
    # registry prefixes and digests name the same repository
    assert images.entry_point("docker.io/vllm/vllm-openai@sha256:abc", "0.8.5").entry == "api_server"
    # not an upstream image: unknown
    assert images.entry_point("quay.io/someone/vllm-openai-ubi9:0.4.2", "0.8.5") is None
    assert images.entry_point("nvidia/cuda:12.4.0", "0.8.5") is None
    # the entry point changes once, from the api_server module to vllm serve
    entries = [e.entry for e in (images.entry_point("vllm/vllm-openai", v) for v in RELEASES) if e is not None]
    switch = entries.index("serve")
    assert set(entries[:switch]) == {"api_server"} and set(entries[switch:]) == {"serve"}


@pytest.mark.parametrize("image, version", [
    ("vllm/vllm-openai:v0.10.1", "0.10.1"),
    ("vllm/vllm-openai:v0.6.3.post1", "0.6.3.post1"),
    ("vllm/vllm-openai:v0.10.1.1-cu128", "0.10.1.1"),
    ("docker.io/vllm/vllm-openai:0.9.0", "0.9.0"),
    ("quay.io/rh-aiservices-bu/vllm-openai-ubi9:0.4.2", "0.4.2"),
    ("registry.example.com/team/vllm-cpu:v0.8.5", "0.8.5"),
    ("vllm/vllm-openai:latest", None),
    ("vllm/vllm-openai:nightly", None),
    ("vllm/vllm-openai", None),
    ("nvidia/cuda:12.4.0-devel-ubuntu22.04", None),
    ("myorg/llm-server:0.6.0", None),  # an unrelated image's tag is not a pin
    ("ghcr.io/org/vllm-proxy:2.1.0", None),  # not a vLLM version (vLLM has only 0.x releases)
])
def test_tag_versions(image, version):
    assert images.tag_version(image) == version
