"""YAML documents: recognise what each document is, then read its launches.

Every document of a stream is recognised on its own, by shape, never by file
name alone (a ``vllm_config.yaml`` may be an app config; a SkyPilot task may
run SGLang):

=================  ==========================================================
kubernetes         ``apiVersion`` + ``kind`` (``k8s.py``)
compose            ``services:`` whose entries have image/build/command
github-actions     ``jobs:`` with steps, or a composite action's ``runs:``
skypilot           ``run:`` beside resources/envs/setup/...
vllm-config        a flat mapping of vLLM-flag-like keys (``vllm_config.py``)
helm               a values file mentioning vLLM (``helm.py``)
=================  ==========================================================

YAML syntax errors are reported only where they matter: when the file shows
some sign of vLLM, and never for Helm templates (``{{ }}`` makes them
invalid YAML until rendered).
"""

from __future__ import annotations

import logging
from typing import Callable

from yaml.nodes import Node

from ..model import Form, Launch, ParsedDocument, ParseProblem
from ..text import Span
from . import problems
from . import yamlnodes as yn
from .compose import is_compose, parse_compose
from .entry import config_refs
from .helm import looks_like_values, parse_helm
from .k8s import is_kubernetes, parse_k8s
from .vllm_config import config_launch, looks_like_vllm_config
from .workflows import is_github_actions, is_skypilot, parse_github_actions, parse_skypilot

log = logging.getLogger(__name__)

_Parser = Callable[[yn.YamlDoc, str], "tuple[list[Launch], list[ParseProblem]]"]


def _vllm_config(doc: yn.YamlDoc, text: str) -> tuple[list[Launch], list[ParseProblem]]:
    return [config_launch(doc.src, doc.root)], []


_PARSERS: dict[Form, _Parser] = {
    Form.KUBERNETES: parse_k8s,
    Form.COMPOSE: parse_compose,
    Form.GITHUB_ACTIONS: parse_github_actions,
    Form.SKYPILOT: parse_skypilot,
    Form.VLLM_CONFIG: _vllm_config,
    Form.HELM: parse_helm,
}


def detect(root: Node | None, text: str, path: str) -> Form | None:
    """The form of one YAML document, or None for YAML that is none of ours."""
    if is_kubernetes(root):
        return Form.KUBERNETES
    if is_compose(root):
        return Form.COMPOSE
    if is_github_actions(root):
        return Form.GITHUB_ACTIONS
    if is_skypilot(root):
        return Form.SKYPILOT
    if looks_like_vllm_config(root):
        return Form.VLLM_CONFIG
    if looks_like_values(root, text, path):
        return Form.HELM
    return None


def parse_yaml_document(path: str, text: str) -> ParsedDocument:
    """All launches of a YAML file.  Never raises."""
    result = ParsedDocument(path=path, form=None)
    try:
        docs, syntax = yn.load_documents(text)
    except Exception as exc:  # a bug here must not take the server down
        log.exception("reading YAML %s", path)
        result.problems.append(_internal(exc, Span(0, 0)))
        return result
    forms: list[Form] = []
    for doc in docs:
        chunk = text[doc.span.start : doc.span.end]
        try:
            form = detect(doc.root, chunk, path)
            if form is None:
                continue
            launches, found = _PARSERS[form](doc, chunk)
        except Exception as exc:
            log.exception("parsing a YAML document of %s", path)
            result.problems.append(_internal(exc, Span(doc.span.start, doc.span.start)))
            continue
        forms.append(form)
        result.launches.extend(launches)
        result.problems.extend(found)
    if syntax and _report_syntax(path, text, forms):
        result.problems[:0] = syntax
    result.form = forms[0] if forms else None
    for launch in result.launches:
        for word in config_refs(launch):
            result.config_refs.append((launch, word))
    return result


def _report_syntax(path: str, text: str, forms: list[Form]) -> bool:
    if "{{" in text:
        return False
    return bool(forms) or "vllm" in (path + text).lower()


def _internal(exc: Exception, span: Span) -> ParseProblem:
    return ParseProblem(
        problems.PARSE_ERROR,
        f"servelint could not read this YAML document ({type(exc).__name__}: {exc})",
        span,
        "warning",
    )
