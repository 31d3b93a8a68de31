"""A Helm chart's template is linted with its values.yaml rendered into it,
and its values.yaml with the template's launch (issue 16, item 8).

The chart under charts/gemma-server runs `vllm serve {{ .Values.server.model }}`
with `--port={{ .Values.service.port }}`, a typo of its own
(`--max-model-length`), `{{- toYaml .Values.server.args | nindent 12 }}` and
`--max-model-len={{ .Values.server.maxModelLen }}`, a value values.yaml does
not set.  values.yaml gives a Gemma 3 model (its config.json in a Hugging Face
cache made here) and `--dtype=float16`, which vLLM rejects for Gemma 3 (SL312).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from servelint.engine import Engine
from servelint.engine.io import read_text_file
from servelint.settings import Settings

CHART = Path(__file__).parent / "charts" / "gemma-server"
TEMPLATE = "templates/deployment.yaml"
FLOAT16 = ("The model type 'gemma3_text' does not support float16. Reason: Numerical instability. "
           "Please use bfloat16 or float32 instead.")


@pytest.fixture(scope="module")
def hub(tmp_path_factory) -> Path:
    """A Hugging Face cache holding acme/gemma3-mini's config.json."""
    hub = tmp_path_factory.mktemp("hub")
    snapshot = hub / "models--acme--gemma3-mini" / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps(
        {"architectures": ["Gemma3ForCausalLM"], "model_type": "gemma3_text"}))
    (hub / "models--acme--gemma3-mini" / "refs").mkdir()
    (hub / "models--acme--gemma3-mini" / "refs" / "main").write_text("a" * 40)
    return hub


def _env(hub: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    env["HF_HUB_CACHE"] = str(hub)
    return env


def _check(hub: Path, chart: Path, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", *args],
        cwd=chart, capture_output=True, text=True, env=_env(hub), timeout=120,
    )
    assert out.returncode in (0, 1), out.stderr
    report = json.loads(out.stdout)
    report["chart"] = chart
    return report


def _found(report: dict) -> list[tuple]:
    """(file relative to the chart, start, end, code, message) of each diagnostic."""
    out = []
    for d in report["diagnostics"]:
        path = os.path.relpath(os.path.join(report["chart"], d["path"]), report["chart"])
        r = d["range"]
        out.append((path.replace(os.sep, "/"), (r["start"]["line"], r["start"]["character"]),
                    (r["end"]["line"], r["end"]["character"]), d["code"], d["message"]))
    return sorted(out)


TYPO = ("unknown flag --max-model-length for vLLM 0.33.0; did you mean --max-model-len?")
EXPECTED = [
    # --dtype=float16 is written in values.yaml (line 8): reported there.
    ("templates/deployment.yaml", (15, 14), (15, 32), "SL101", TYPO),
    ("values.yaml", (7, 6), (7, 13), "SL312", FLOAT16),
]


def test_a_template_reports_values_words_in_values_yaml(hub):
    found = _found(_check(hub, CHART, TEMPLATE))
    assert [f[:4] for f in found] == [e[:4] for e in EXPECTED]
    assert found[0][4].startswith("unknown flag --max-model-length for vLLM 0.33.0")
    assert found[1][4] == FLOAT16


def test_the_values_file_is_linted_as_the_templates_launch(hub):
    found = _found(_check(hub, CHART, "values.yaml"))
    assert [f[:4] for f in found] == [e[:4] for e in EXPECTED]
    launches = _check(hub, CHART, "--show-launches", "values.yaml")["files"][0]["launches"]
    assert len(launches) == 1
    launch = launches[0]
    assert launch["entry"] == "vllm serve" and "entry_unknown" not in launch
    assert launch["model"]["name"] == "acme/gemma3-mini"
    assert launch["model"]["range"] == {"start": {"line": 5, "character": 9}, "end": {"line": 5, "character": 25}}
    flags = {f["flag"]: f for f in launch["flags"]}
    # Its own words are in values.yaml; the template's are in the template.
    assert flags["--dtype"]["range"]["start"] == {"line": 7, "character": 6}
    assert flags["--port"]["values"] == ["8000"] and flags["--port"]["file"].endswith("templates/deployment.yaml")


def test_the_whole_chart_reports_each_finding_once(hub):
    assert [f[:4] for f in _found(_check(hub, CHART, "."))] == [e[:4] for e in EXPECTED]


def test_a_value_the_values_file_does_not_set_stays_unknown(hub):
    launch = _check(hub, CHART, "--show-launches", TEMPLATE)["files"][0]["launches"][0]
    flags = {f["flag"]: f for f in launch["flags"]}
    assert flags["--max-model-len"]["unknown"] == "{{ .Values.server.maxModelLen }} is filled in when the chart is rendered"
    assert flags["--port"]["values"] == ["8000"] and "unknown" not in flags["--port"]


def _chart(tmp_path: Path, values: str, template: str) -> Path:
    chart = tmp_path / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: chart\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text(values)
    (chart / TEMPLATE).write_text(template)
    return chart


CONTAINER = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          command: ["vllm", "serve"]
          args:
"""


def test_a_dtype_the_values_file_does_not_set_is_silent(hub, tmp_path):
    chart = _chart(tmp_path, "server:\n  model: acme/gemma3-mini\n",
                   CONTAINER + "            - {{ .Values.server.model }}\n"
                               "            - --dtype={{ .Values.server.dtype }}\n")
    assert _found(_check(hub, chart, TEMPLATE)) == []
    # The same chart with the value set: the finding, at the value in values.yaml.
    (chart / "values.yaml").write_text("server:\n  model: acme/gemma3-mini\n  dtype: half\n")
    found = _found(_check(hub, chart, TEMPLATE))
    assert [f[:4] for f in found] == [("templates/deployment.yaml", (13, 14), (13, 21), "SL312")]


def test_a_list_inserted_under_a_condition_stays_unknown(hub, tmp_path):
    values = "server:\n  model: acme/gemma3-mini\n  args:\n    - --dtype=float16\n"
    guarded = (CONTAINER + "            - {{ .Values.server.model }}\n"
               "            {{- if .Values.server.args }}\n"
               "            {{- toYaml .Values.server.args | nindent 12 }}\n"
               "            {{- end }}\n")
    chart = _chart(tmp_path, values, guarded)
    assert _found(_check(hub, chart, TEMPLATE)) == []
    (chart / TEMPLATE).write_text(CONTAINER + "            - {{ .Values.server.model }}\n"
                                  "            {{- toYaml .Values.server.args | nindent 12 }}\n")
    assert [f[:4] for f in _found(_check(hub, chart, TEMPLATE))] == [("values.yaml", (3, 6), (3, 13), "SL312")]


def test_a_values_file_no_template_reads_keeps_its_own_launch(hub, tmp_path):
    values = "vllm:\n  extraArgs:\n    - --max-model-len=4096\n"
    looped = (CONTAINER + "            {{- range .Values.vllm.extraArgs }}\n"
              "            - {{ . }}\n"
              "            {{- end }}\n")
    chart = _chart(tmp_path, values, looped)
    launch = _check(hub, chart, "--show-launches", "values.yaml")["files"][0]["launches"][0]
    assert launch["entry"] == "image entrypoint"
    assert "templates, which servelint does not read" in launch["entry_unknown"]


def test_an_edit_of_values_yaml_is_seen_when_the_template_is_linted_again(hub, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    chart = tmp_path / "chart"
    shutil.copytree(CHART, chart)
    values_path = str(chart / "values.yaml")
    open_files = {values_path: (chart / "values.yaml").read_text()}
    engine = Engine(Settings(), read_file=lambda p: open_files[p] if p in open_files else read_text_file(p))
    template_path = str(chart / TEMPLATE)
    text = (chart / TEMPLATE).read_text()

    def codes() -> list[tuple[str, str]]:
        return sorted((os.path.basename(d.path), d.code) for d in engine.lint(template_path, text).diagnostics)

    assert codes() == [("deployment.yaml", "SL101"), ("values.yaml", "SL312")]
    open_files[values_path] = open_files[values_path].replace("--dtype=float16", "--dtype=bfloat16")
    assert codes() == [("deployment.yaml", "SL101")]
    before = engine.launch_evaluations
    assert codes() == [("deployment.yaml", "SL101")]
    assert engine.launch_evaluations == before  # nothing changed: reused
    open_files[values_path] = open_files[values_path].replace("--dtype=bfloat16", "--dtype=half")
    found = engine.lint(template_path, text)
    [d] = [d for d in found.diagnostics if d.code == "SL312"]
    assert (d.path, found.source_of(d.path).range(d.span)["start"]["line"]) == (values_path, 7)


def test_the_image_values_yaml_gives_decides_the_release(hub, tmp_path):
    chart = tmp_path / "chart"
    shutil.copytree(CHART, chart)
    (chart / "values.yaml").write_text((CHART / "values.yaml").read_text().replace("tag: v0.33.0", "tag: v0.28.0"))
    for name in (TEMPLATE, "values.yaml"):
        [launch] = _check(hub, chart, "--show-launches", name)["files"][0]["launches"]
        assert launch["release"] == {
            "version": "0.28.0", "reason": "the image `vllm/vllm-openai:v0.28.0` of this launch's container"}
    assert {f[3]: f[4] for f in _found(_check(hub, chart, TEMPLATE))}["SL101"].startswith(
        "unknown flag --max-model-length for vLLM 0.28.0")


def test_a_suppression_in_values_yaml_holds_for_the_template_too(hub, tmp_path):
    chart = tmp_path / "chart"
    shutil.copytree(CHART, chart)
    values = (CHART / "values.yaml").read_text().replace(
        "- --dtype=float16", "- --dtype=float16  # servelint: ignore[SL312] -- tested in float16")
    (chart / "values.yaml").write_text(values)
    for name in (TEMPLATE, "values.yaml", "."):
        assert [f[3] for f in _found(_check(hub, chart, name))] == ["SL101"], name


def test_the_templates_own_image_decides_the_values_files_release(hub, tmp_path):
    template = CONTAINER.replace("v0.33.0", "v0.28.0") + "            - {{ .Values.model }}\n"
    chart = _chart(tmp_path, "model: acme/gemma3-mini\n", template)
    [launch] = _check(hub, chart, "--show-launches", "values.yaml")["files"][0]["launches"]
    assert launch["release"] == {
        "version": "0.28.0", "reason": "the image `vllm/vllm-openai:v0.28.0` of this launch's container"}
    assert launch["entry_range"]["start"] == {"line": 0, "character": 0}
