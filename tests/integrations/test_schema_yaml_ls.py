"""The --config JSON Schema in the real yaml-language-server, over stdio.

The schema is made by ``servelint schema`` (a subprocess, as the extension's
build and a user make it) and handed to yaml-language-server the two ways
users do: the VS Code extension's ``yamlValidation`` contribution (sent as
vscode-yaml sends it, the ``json/schemaAssociations`` notification, built
from client/package.json) and the ``# yaml-language-server: $schema=``
modeline.  The server is the npm package pinned in tests/integrations/tools
(``make integration-tools``); without it the tests are skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
YLS = os.path.join(HERE, "tools", "node_modules", "yaml-language-server", "bin", "yaml-language-server")
BIN = os.path.join(os.path.dirname(sys.executable), "servelint")

pytestmark = [
    pytest.mark.skipif(not os.path.exists(YLS), reason="yaml-language-server is not installed (make integration-tools)"),
    # One server for the module: starting it costs ~1.5 s.
    pytest.mark.asyncio(loop_scope="module"),
]


def servelint_schema(*args: str) -> str:
    exe = [BIN] if os.path.exists(BIN) else [sys.executable, "-m", "servelint"]
    proc = subprocess.run(exe + ["schema", *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def extension(tmp_path_factory):
    """The extension as installed: its package.json and, at the path its
    yamlValidation names, the schema its build writes."""
    with open(os.path.join(ROOT, "client", "package.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    ext = tmp_path_factory.mktemp("extension")
    validations = manifest["contributes"]["yamlValidation"]
    for v in validations:
        path = ext / v["url"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(servelint_schema())
    # What vscode-yaml's getSchemaAssociations() sends: './' urls joined to
    # the extension's location, file patterns made absolute with '/'.
    associations = [
        {
            "fileMatch": [fm if fm.startswith(("/", "!")) else "/" + fm for fm in
                          ([v["fileMatch"]] if isinstance(v["fileMatch"], str) else v["fileMatch"])],
            "uri": (ext / v["url"]).as_uri(),
        }
        for v in validations
    ]
    return {"manifest": manifest, "associations": associations, "dir": ext}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=["node", YLS, "--stdio"]), scope="module")
async def yls(lsp_client: LanguageClient, extension, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("workspace")
    # yaml-language-server registers didChangeConfiguration dynamically.
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None
    lsp_client.published = {}

    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        lsp_client.published.setdefault(params.uri, list(params.diagnostics))

    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    lsp_client.set_configuration(
        {
            "validate": True,
            "hover": True,
            "completion": True,
            "format": {"enable": False},
            "schemaStore": {"enable": False},  # no network
            "schemas": {},
        },
        section="yaml",
    )
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        )
    )
    lsp_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"yaml": lsp_client.get_configuration(section="yaml")})
    )
    # vscode-jsonrpc sends a notification whose one parameter is an array
    # as [array], and unwraps it again on the server side.
    lsp_client.protocol.notify("json/schemaAssociations", [extension["associations"]])
    lsp_client.tmp = tmp_path
    yield
    await lsp_client.shutdown_session()


async def open_doc(client: LanguageClient, name: str, text: str) -> str:
    path = client.tmp / name
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text))
    )
    return uri


async def diagnostics(client: LanguageClient, uri: str, timeout: float = 60) -> list[types.Diagnostic]:
    """The first diagnostics published for ``uri`` (every publish is kept
    by the fixture's handler, so none is missed while nobody waits)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while uri not in client.published:
        assert loop.time() < deadline, f"no diagnostics for {uri}"
        await asyncio.sleep(0.02)
    return list(client.published[uri])


async def test_the_extension_contributes_the_documented_patterns(extension):
    from servelint.schema import FILE_MATCH

    [entry] = extension["manifest"]["contributes"]["yamlValidation"]
    assert entry["fileMatch"] == list(FILE_MATCH) == ["*.vllm.yaml", "*.vllm.yml", "vllm-config.yaml", "vllm-config.yml"]
    assert entry["url"] == "./schemas/vllm-config.schema.json"


async def test_completion_offers_flags_with_their_help(yls):
    uri = await open_doc(yls, "serve.vllm.yaml", "model: Qwen/Qwen3-8B\nmax-model\n")
    await diagnostics(yls, uri)  # the schema is in use once the file is validated
    result = await yls.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line=1, character=9))
    )
    items = result.items if isinstance(result, types.CompletionList) else result
    labels = {i.label for i in items}
    assert "max-model-len" in labels
    # One spelling per option: underscores and hidden aliases are accepted, not offered.
    assert "max_model_len" not in labels
    assert "no-enable-prefix-caching" not in labels and "enable-prefix-caching" in labels
    item = next(i for i in items if i.label == "max-model-len")
    doc = item.documentation.value if isinstance(item.documentation, types.MarkupContent) else item.documentation
    assert "Model context length (prompt and output)" in doc


async def test_bad_enum_value_and_unknown_flag_are_reported(yls):
    text = "model: Qwen/Qwen3-8B\ndtype: float17\nmax-modl-len: 8192\n"
    uri = await open_doc(yls, "vllm-config.yaml", text)
    diags = await diagnostics(yls, uri)
    by_line = {d.range.start.line: d for d in diags}
    assert set(by_line) == {1, 2}, [d.message for d in diags]
    enum = by_line[1]
    assert (enum.range.start.character, enum.range.end.character) == (7, 14)  # the value
    assert enum.message.startswith("Value is not accepted. Valid values:")
    assert '"bfloat16"' in enum.message and '"half"' in enum.message
    unknown = by_line[2]
    assert unknown.message == "Property max-modl-len is not allowed."
    assert (unknown.range.start.character, unknown.range.end.character) == (0, 12)


async def test_every_spelling_vllm_accepts_is_accepted(yls):
    # Underscores, an abbreviation unique in the release, a dotted key of a
    # JSON flag, a nested mapping with its dataclass fields, numbers given as
    # strings (vLLM passes str(value) to argparse), a list for nargs='+',
    # the negative switch, null for an optional value.
    text = "\n".join([
        "model: Qwen/Qwen3-8B",
        "max_model_len: 32k",
        "gpu-memory-util: 0.85",
        "tensor_parallel-size: '2'",
        "compilation-config.mode: 3",
        "speculative-config:",
        "  method: ngram",
        "  num_speculative_tokens: 3",
        "served-model-name: [qwen, qwen3]",
        "no-enable-prefix-caching: true",
        "enforce-eager: true",
        "revision: null",
        "",
    ])
    uri = await open_doc(yls, "ok.vllm.yaml", text)
    assert await diagnostics(yls, uri) == []


async def test_false_is_flagged_as_dropped(yls):
    uri = await open_doc(yls, "drop.vllm.yaml", "model: Qwen/Qwen3-8B\nenable-prefix-caching: false\n")
    [d] = await diagnostics(yls, uri)
    # yaml-language-server publishes every schema problem as an error.
    assert d.severity == types.DiagnosticSeverity.Error
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (1, 0, 28)
    # The negative spelling vLLM 0.33.0 documents.
    assert "drops `false`" in d.message and "`disable-prefix-caching: true`" in d.message


async def test_nested_keys_of_a_dataclass_flag_are_checked(yls):
    text = "model: Qwen/Qwen3-8B\ncompilation-config:\n  mode: 3\n  cudagraph_capture_size: [1, 2]\n"
    uri = await open_doc(yls, "nested.vllm.yaml", text)
    [d] = await diagnostics(yls, uri)
    assert d.message == "Property cudagraph_capture_size is not allowed."
    assert d.range.start.line == 3


async def test_hover_shows_the_flags_help(yls):
    uri = await open_doc(yls, "hover.vllm.yaml", "model: Qwen/Qwen3-8B\ngpu-memory-utilization: 0.9\n")
    await diagnostics(yls, uri)
    hover = await yls.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line=1, character=4))
    )
    assert hover is not None
    text = hover.contents.value if isinstance(hover.contents, types.MarkupContent) else str(hover.contents)
    assert "The fraction of GPU memory to be used for the model executor" in text
    assert "Default: `0.92`" in text and "vLLM 0.33.0" in text


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line=line, character=character))
    )
    assert hover is not None
    return hover.contents.value if isinstance(hover.contents, types.MarkupContent) else str(hover.contents)


async def test_values_are_completed_and_switches_keep_their_help(yls):
    text = "model: Qwen/Qwen3-8B\nenforce-eager: true\ndtype: \nuse-tqdm-on-load: \n"
    uri = await open_doc(yls, "values.vllm.yaml", text)
    await diagnostics(yls, uri)

    async def labels(line: int, character: int) -> list[str]:
        result = await yls.text_document_completion_async(
            types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line=line, character=character))
        )
        return [i.label for i in (result.items if isinstance(result, types.CompletionList) else result)]

    # argparse's choices, and not the `false` vLLM would drop.
    assert await labels(2, 7) == ["auto", "bfloat16", "float", "float16", "float32", "half"]
    assert await labels(3, 18) == ["true"]
    assert "Whether to always use eager-mode PyTorch" in await hover_text(yls, uri, 1, 3)


async def test_modeline_picks_a_release_for_any_file_name(yls, tmp_path_factory):
    schemas = tmp_path_factory.mktemp("schemas")
    path = schemas / "0.28.0.json"
    path.write_text(servelint_schema("--vllm-version", "0.28.0"))
    # --disable-prefix-caching exists from 0.33.0 on; --use-replayssm from 0.27.0.
    text = f"# yaml-language-server: $schema={path.as_uri()}\nmodel: x\nuse-replayssm: true\ndisable-prefix-caching: true\n"
    uri = await open_doc(yls, "serve-config.yaml", text)
    [d] = await diagnostics(yls, uri)
    assert d.message == "Property disable-prefix-caching is not allowed."
    assert d.range.start.line == 3


# -- the conformance configs: the schema's verdict against vLLM's ---------------------

CONFORMANCE = os.path.join(ROOT, "tests", "conformance")

# Files vLLM rejects that the schema accepts, and why it cannot see it.
# Fixing one makes the test fail until it is removed here.
KNOWN_MISSES = {
    "exponent.yaml": "YAML 1.2 (the editor) reads 1e3 as the number 1000; vLLM's PyYAML reads the string '1e3'",
    "empty.yaml": "an empty file has no value to check",
    "port-only.yaml": "no model in the file: the command line may give it",
    "overridden.yaml": "a length above the model's own: depends on the model's config.json",
}


def config_cases() -> dict[str, str]:
    """case id -> config file, for the cases that are a model (or none) and
    one --config FILE.yaml: there vLLM's verdict is the file's."""
    with open(os.path.join(CONFORMANCE, "cases", "config-file.json"), encoding="utf-8") as fh:
        cases = json.load(fh)["cases"]
    out = {}
    for case_id, argv in cases.items():
        argv = argv["argv"] if isinstance(argv, dict) else argv
        if "--config" not in argv or argv.count("--config") != 1 or argv[-1] == "--config":
            continue
        i = argv.index("--config")
        rest = argv[:i] + argv[i + 2:]
        name = argv[i + 1]
        if len(rest) > 1 or (rest and rest[0].startswith("-")) or not name.endswith((".yaml", ".yml")):
            continue
        if os.path.exists(os.path.join(CONFORMANCE, name)):
            out[case_id] = name
    return out


def verdicts() -> dict[str, dict]:
    folder = os.path.join(CONFORMANCE, "verdicts")
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            data = json.load(fh)
        out[data["release"]] = data["cases"]
    return out


async def test_the_schema_agrees_with_vllm_on_the_conformance_configs(yls, tmp_path_factory):
    out = tmp_path_factory.mktemp("all-schemas")
    servelint_schema("--output-dir", str(out))
    cases = config_cases()
    assert len(cases) >= 35
    # Every document opened at once: the server validates each after its
    # own short delay, so waiting for them one by one would add those up.
    opened = {}
    for release, verdict in verdicts().items():
        schema_uri = (out / f"{release}.json").as_uri()
        for case_id, name in sorted(cases.items()):
            if case_id in verdict:
                with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as fh:
                    text = f"# yaml-language-server: $schema={schema_uri}\n" + fh.read()
                uri = await open_doc(yls, f"{release}-{os.path.basename(name)}", text)
                opened[uri] = (release, case_id, name, verdict[case_id]["verdict"])
    wrong, missed, agreed = [], set(), 0
    for uri, (release, case_id, name, vllm_says) in opened.items():
        # The schema's findings, not YAML syntax errors (duplicate keys...).
        found = [d for d in await diagnostics(yls, uri) if d.data and d.data.get("schemaUri")]
        problems = [d for d in found if not d.message.startswith("vLLM drops `false`")]
        if vllm_says == "ok":
            if problems:
                wrong.append((release, case_id, [d.message for d in problems]))
            else:
                agreed += 1
        elif problems:
            agreed += 1
        else:
            missed.add(os.path.basename(name))
    # vLLM accepts it: the schema must too (a wrong finding costs more than a missing one).
    assert wrong == []
    # vLLM rejects it: the schema says so, but for the files it cannot judge.
    assert missed == set(KNOWN_MISSES), missed
    assert agreed > 0
