"""The forms added for issue 16 (Makefiles, Go templates in YAML, operator
resources, compose build:) never crash and never point outside the text:
every cut and every one-character deletion of their golden inputs parses,
with every span inside the document."""

from __future__ import annotations

from pathlib import Path

import pytest

from servelint.parse import parse_document

FORMS = Path(__file__).parent.parent / "forms"
INPUTS = [
    FORMS / "makefile" / "Makefile",
    FORMS / "makefile" / "serve.mk",
    FORMS / "helm" / "templates" / "deployment.yaml",
    FORMS / "helm" / "templates" / "statefulset-script.yaml",
    FORMS / "kubernetes" / "kserve-llminferenceservice.yaml",
    FORMS / "kubernetes" / "llmaz-backendruntime.yaml",
    FORMS / "kubernetes" / "kserve-inferenceservice.yaml",
    FORMS / "kubernetes" / "kubeai-model.yaml",
    FORMS / "helm" / "values-unmodelled-charts.yaml",
    FORMS / "compose" / "build-instead-of-image.yaml",
]


def spans_inside(doc, n: int) -> None:
    assert not [p for p in doc.problems if p.message.startswith("servelint could not read")]
    for launch in doc.launches:
        for span in [launch.span, launch.entry_span] + [w.span for w in launch.args + launch.opaque if w.path is None]:
            assert 0 <= span.start <= span.end <= n, (span, n)
        for p in launch.problems:
            assert 0 <= p.span.start <= p.span.end <= n


@pytest.mark.parametrize("path", INPUTS, ids=[p.name for p in INPUTS])
def test_cuts_and_deletions(path: Path) -> None:
    text = path.read_text()
    step = max(1, len(text) // 150)
    for k in range(0, len(text), step):
        for variant in (text[:k], text[:k] + text[k + 1 :], text[:k] + "{{" + text[k:], text[:k] + "\t" + text[k:]):
            spans_inside(parse_document(path.name, variant), len(variant))
