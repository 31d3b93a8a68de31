"""Go-template text in YAML (Helm chart templates, KServe/llmaz placeholders):
read as YAML with each expression an unknown value, never an error
(issue 16, item 8)."""

from __future__ import annotations

from servelint.model import Entry
from servelint.parse import parse_document
from servelint.parse.templates import PLACEHOLDER, mask

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          args:
            - {{ .Values.model | quote }}
            - --max-model-len={{ .Values.maxModelLen }}
            {{- if .Values.eager }}
            - --enforce-eager
            {{- end }}
            {{- range .Values.extraArgs }}
            - {{ . | quote }}
            {{- end }}
            - --seed
            - "0"
"""


def test_mask_keeps_every_offset() -> None:
    masked, marks = mask(TEMPLATE)
    assert len(masked) == len(TEMPLATE)
    assert [i for i, c in enumerate(masked) if c == "\n"] == [i for i, c in enumerate(TEMPLATE) if c == "\n"]
    assert "{{" not in masked and PLACEHOLDER in masked
    assert [e for _, e in marks.values][:2] == ["{{ .Values.image.repository }}", "{{ .Values.image.tag }}"]


def test_a_template_that_is_not_yaml_is_read() -> None:
    doc = parse_document("templates/deployment.yaml", TEMPLATE)
    assert doc.problems == []  # never an error
    [launch] = doc.launches
    assert launch.entry is Entry.IMAGE
    assert launch.entry_unknown == (
        "the image is `{{ .Values.image.repository }}:{{ .Values.image.tag }}`, "
        "not known from this file, so neither is what it runs"
    )
    model, max_len, eager, seed, zero = launch.args
    assert (model.text, model.exact) == ("{{ .Values.model | quote }}", False)
    assert model.note == "{{ .Values.model | quote }} is filled in when the chart is rendered"
    assert TEMPLATE[model.span.start : model.span.end] == "{{ .Values.model | quote }}"
    assert max_len.text == "--max-model-len={{ .Values.maxModelLen }}" and not max_len.exact
    assert eager.text == "--enforce-eager" and not eager.exact
    assert eager.note == "inside `{{- if .Values.eager }}`: present only when that holds as the chart is rendered"
    assert (seed.text, seed.exact, zero.text, zero.exact) == ("--seed", True, "0", True)
    # A range gives any number of words: flags may hide there.
    assert [w.text for w in launch.opaque] == ["{{ . | quote }}"]


def test_known_repository_with_a_templated_tag() -> None:
    text = TEMPLATE.replace('"{{ .Values.image.repository }}:', '"vllm/vllm-openai:')
    [launch] = parse_document("deployment.yaml", text).launches
    assert launch.entry_unknown is None and launch.image.startswith("vllm/vllm-openai:")


def test_placeholders_of_operators() -> None:
    text = """\
apiVersion: serving.kserve.io/v1alpha1
kind: ClusterServingRuntime
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.9.0
      command: [python, -m, vllm.entrypoints.openai.api_server]
      args: ["--port=8080", "--served-model-name={{.Name}}", "--model=/mnt/models"]
"""
    [launch] = parse_document("runtime.yaml", text).launches
    name = launch.args[1]
    assert name.text == "--served-model-name={{.Name}}" and not name.exact
    assert name.note == "{{.Name}} is filled in when the operator reading this resource is rendered"
    assert launch.args[0].exact and launch.args[2].exact


def test_github_expressions_and_jinja_are_not_go_templates() -> None:
    for text in ("run: echo ${{ inputs.model }}\n", 'chat-template: "{{ messages[0].content }}"\n'):
        masked, marks = mask(text)
        assert masked == text and not marks.values


def test_helm_conditions_around_a_whole_resource_do_not_mark_its_argv() -> None:
    text = "{{- if .Values.enabled }}\n" + TEMPLATE + "{{- end }}\n"
    [launch] = parse_document("deployment.yaml", text).launches
    assert launch.args[-1].exact and launch.args[-2].exact
