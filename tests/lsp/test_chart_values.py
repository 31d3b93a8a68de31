"""A Helm chart's template in the editor is linted with its values.yaml: a
finding on a word from values.yaml is shown on the launch, pointing there,
and an edit of values.yaml (open, unsaved) re-lints the template."""

from __future__ import annotations

from lsp_harness import rng
from test_workspace import _wait_for

from servelint import knowledge

TEMPLATE = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-llm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          command: ["vllm", "serve"]
          args:
            - {{ .Values.model }}
            {{- toYaml .Values.args | nindent 12 }}
"""
VALUES = "model: facebook/opt-125m\nargs:\n  - --max-num-seqs=8\n  - --max-modl-len=8192\n"


async def test_values_words_are_reported_on_the_template_and_follow_edits(session):
    await session.initialize()
    session.write("chart/Chart.yaml", "apiVersion: v2\nname: chart\nversion: 0.1.0\n")
    session.write("chart/values.yaml", VALUES)
    template = session.open("chart/templates/deployment.yaml", TEMPLATE, "yaml")
    [d] = await session.diagnostics(template)
    assert d.code == "SL101"
    assert d.range == rng(TEMPLATE, '"vllm", "serve"')
    # Where the word is, then the rule's own message (its suggestions are the rule's to choose).
    assert d.message.startswith(f"values.yaml:4:5: unknown flag --max-modl-len for vLLM {knowledge.NEWEST}; "
                                "did you mean --max-model-len")
    [related] = d.related_information
    values = session.uri("chart/values.yaml")
    assert related.location.uri == values
    assert related.location.range == rng(VALUES, "--max-modl-len")

    # values.yaml opened and edited, never saved: the template reads the editor's text.
    session.open("chart/values.yaml", VALUES, "yaml")
    mark = len(session.published)
    session.change(values, VALUES.replace("--max-modl-len", "--max-model-len"))
    await _wait_for(session, template, mark, lambda ds: ds == [])
