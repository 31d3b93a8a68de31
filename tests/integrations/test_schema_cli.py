"""`servelint schema` as a subprocess: what the printed schema says about
vLLM's options, per release (the editor's view of it is
test_schema_yaml_ls.py)."""

from __future__ import annotations

import json
import os

from servelint import knowledge

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def schema(cli, *args):
    proc = cli("schema", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def resolve(s: dict, prop: dict) -> dict:
    while "$ref" in prop or "allOf" in prop:
        ref = prop["$ref"] if "$ref" in prop else prop["allOf"][0]["$ref"]
        prop = s["definitions"][ref.rsplit("/", 1)[1]]
    return prop


def one_value(s: dict, name: str) -> dict:
    """The schema of one value of a flag (its first alternative)."""
    return resolve(s, resolve(s, s["properties"][name])["anyOf"][0])


def test_default_is_the_newest_release(cli):
    s = schema(cli)
    assert s["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert s["title"] == f"vLLM {knowledge.NEWEST} --config file"
    assert s["additionalProperties"] is False


def test_flags_types_enums_defaults_and_ranges(cli):
    s = schema(cli, "--vllm-version", "0.33.0")
    props = s["properties"]
    assert one_value(s, "dtype")["enum"][:3] == ["auto", "bfloat16", "float"]
    assert resolve(s, props["dtype"])["default"] == "auto"
    tp = one_value(s, "tensor-parallel-size")
    assert tp["type"] == ["integer", "string"] and tp["minimum"] == 1
    util = one_value(s, "gpu-memory-utilization")
    assert (util["exclusiveMinimum"], util["maximum"]) == (0, 1)
    # A JSON-valued flag: a mapping of its dataclass's fields, or the JSON text.
    spec = one_value(s, "speculative-config")["anyOf"]
    assert "num_speculative_tokens" in spec[0]["properties"]
    assert spec[1] == {"type": "string"}
    cc = one_value(s, "compilation-config")["anyOf"][0]
    assert cc["additionalProperties"] is False and "cudagraph_capture_sizes" in cc["properties"]


def test_hidden_negative_and_deprecated_flags(cli):
    s = schema(cli, "--vllm-version", "0.33.0")
    props = s["properties"]
    # vLLM 0.33.0 hides --no-enable-prefix-caching from --help, and documents --disable-....
    assert props["no-enable-prefix-caching"]["doNotSuggest"] is True
    assert "doNotSuggest" not in props["disable-prefix-caching"]
    assert "Turns `enable-prefix-caching` off" in resolve(s, props["disable-prefix-caching"])["description"]
    deprecated = resolve(s, props["mamba-cache-mode"])
    assert deprecated["deprecated"] is True
    assert deprecated["deprecationMessage"] == "--mamba-cache-mode is deprecated and will be removed in v0.33.0."
    # Short aliases are no config keys ("tp: 2" is "unrecognized arguments: --tp 2").
    assert "tp" not in props and "-tp" not in props


def test_each_release_has_its_own_flags(cli):
    old, new = schema(cli, "--vllm-version", "0.28.0"), schema(cli, "--vllm-version", "v0.33.0")
    assert "disable-prefix-caching" not in old["properties"] and "disable-prefix-caching" in new["properties"]
    assert old["$id"].endswith("/0.28.0.json") and new["$id"].endswith("/0.33.0.json")


def test_an_unknown_release_is_a_usage_error(cli):
    proc = cli("schema", "--vllm-version", "9.9.9")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "no servelint knowledge for vLLM '9.9.9'" in proc.stderr


def test_output_dir_writes_every_release(cli, tmp_path):
    proc = cli("schema", "--output-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([f"{v}.json" for v in knowledge.RELEASES] + ["latest.json"])
    latest = json.loads((tmp_path / "latest.json").read_text())
    assert latest["$id"].endswith("/latest.json")
    assert latest["title"] == f"vLLM {knowledge.NEWEST} --config file"


def test_the_schemastore_entry_in_docs_lists_every_release(cli):
    proc = cli("schema", "--catalog")
    assert proc.returncode == 0, proc.stderr
    entry = json.loads(proc.stdout)
    assert list(entry["versions"]) == list(reversed(knowledge.RELEASES))
    assert entry["url"].endswith("/latest.json")
    with open(os.path.join(ROOT, "docs", "schemastore-catalog.json"), encoding="utf-8") as fh:
        in_docs = json.load(fh)
    assert in_docs == entry, "regenerate: servelint schema --catalog > docs/schemastore-catalog.json"
