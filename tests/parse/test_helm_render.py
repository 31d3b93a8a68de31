"""A chart template's launch with its values put in (parse.templates.values_uses,
parse.helm.render): only `{{ .Values.a.b }}` and `{{ toYaml .Values.x | nindent N }}`
under args:/command: are rendered; anything else stays unknown."""

from __future__ import annotations

from servelint.parse import helm, parse_document, templates

HEAD = """apiVersion: apps/v1
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


def _render(items: str, values: str, in_values: bool = False, head: str = HEAD):
    text = head + items
    [launch] = parse_document("chart/templates/deployment.yaml", text).launches
    [use] = templates.values_uses(text, [launch])
    if use is None:
        return None
    got = helm.render(launch, use, helm.values_root(values), "chart/values.yaml",
                      "chart/templates/deployment.yaml", in_values)
    return None if got is None else got[0]


def _words(launch) -> list[tuple[str, bool, str | None]]:
    return [(w.text, w.exact, w.path) for w in launch.args]


def test_a_scalar_and_a_list_come_from_values_yaml_with_their_places():
    values = "model: org/m\nport: 8000\nextra:\n  - --max-num-seqs=8\n  - --enforce-eager\n"
    launch = _render("            - {{ .Values.model }}\n"
                     "            - --port={{ .Values.port }}\n"
                     "            {{- toYaml .Values.extra | nindent 12 }}\n", values)
    assert _words(launch) == [
        ("org/m", True, "chart/values.yaml"),
        ("--port=8000", True, None),  # the template's word: the value shown over its expression
        ("--max-num-seqs=8", True, "chart/values.yaml"),
        ("--enforce-eager", True, "chart/values.yaml"),
    ]
    model, port, seqs, _ = launch.args
    assert values[model.span.start:model.span.end] == "org/m"
    assert values[seqs.span.start:seqs.span.end] == "--max-num-seqs=8"
    text = HEAD + "            - {{ .Values.model }}\n            - --port={{ .Values.port }}\n"
    assert text[port.sub(7, 11).start:port.sub(7, 11).end] == "{{ .Values.port }}"


def test_linted_as_the_values_file_the_templates_words_carry_its_path():
    launch = _render("            - {{ .Values.model }}\n            - --port=8000\n", "model: org/m\n", in_values=True)
    assert _words(launch) == [("org/m", True, None), ("--port=8000", True, "chart/templates/deployment.yaml")]
    assert launch.deployment is None and launch.problems == []


def test_the_list_goes_where_the_action_is():
    values = "extra:\n  - --a\n"
    launch = _render("            - org/m\n"
                     "            {{- toYaml .Values.extra | nindent 12 }}\n"
                     "            - --b\n", values)
    assert [w.text for w in launch.args] == ["org/m", "--a", "--b"]
    launch = _render("            - org/m\n"
                     "{{ toYaml .Values.extra | indent 12 }}\n", values)
    assert [w.text for w in launch.args] == ["org/m", "--a"]


def test_numbers_and_booleans_as_go_prints_them():
    values = "a: 8192\nb: 0x10\nc: 1048576\nd: true\ne: 2.0\nf: 0.9\n"
    launch = _render("            - org/m\n"
                     "            - --a={{ .Values.a }}\n"
                     "            - --b={{ .Values.b }}\n"
                     "            - --c={{ .Values.c }}\n"  # Go prints 1.048576e+06: not guessed at
                     "            - --d={{ .Values.d }}\n"
                     "            - --e={{ .Values.e }}\n"
                     "            - --f={{ .Values.f }}\n", values)
    assert [(w.text, w.exact) for w in launch.args[1:]] == [
        ("--a=8192", True), ("--b=16", True), ("--c={{ .Values.c }}", False), ("--d=true", True),
        ("--e=2", True), ("--f={{ .Values.f }}", False)]


def test_what_is_not_a_plain_reference_stays_unknown():
    values = "model: org/m\nextra:\n  - --a\nspaced: a b\nempty:\n"
    launch = _render("            - {{ .Values.model | quote }}\n"
                     "            - {{ .Values.missing }}\n"
                     "            - --x={{ .Values.spaced }}\n"
                     "            - --y={{ .Values.empty }}\n"
                     "            - --z={{ include \"x\" . }}\n"
                     "            {{- with .Values.extra }}\n"
                     "            {{- toYaml . | nindent 12 }}\n"
                     "            {{- end }}\n", values)
    assert launch is None  # nothing rendered: the values file gives none of them


def test_inside_a_range_dot_values_is_not_the_charts():
    head = "{{- range .Values.servers }}\n" + HEAD
    text = head + "            - {{ .Values.model }}\n{{- end }}\n"
    [launch] = parse_document("chart/templates/deployment.yaml", text).launches
    assert templates.values_uses(text, [launch]) == [None]


def test_an_if_around_the_whole_resource_does_not_hide_the_values():
    head = "{{- if .Values.enabled }}\n" + HEAD
    launch = _render("            - {{ .Values.model }}\n{{- end }}\n", "model: org/m\n", head=head)
    assert [w.text for w in launch.args] == ["org/m"]


def test_a_list_not_under_args_or_command_is_not_inserted():
    head = HEAD.replace("          args:\n", "          args:\n            - org/m\n          env:\n")
    assert _render("            {{- toYaml .Values.extra | nindent 12 }}\n", "extra:\n  - --a\n", head=head) is None
