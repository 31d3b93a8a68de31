"""The shortcuts in reading YAML nodes give what the long ways give: the
cached resolver the tags of ``yaml.SafeLoader``, a verbatim word the word
the per-character map gives, a span what ``_scalar_bounds`` says."""

from __future__ import annotations

import random

import yaml
from yaml.nodes import ScalarNode

from servelint.model import Word
from servelint.parse import yamlnodes as yn
from servelint.text import Span

_PIECES = ["yes", "No", "on", "~", "null", "1", "0x1F", "0o17", "-3", "1.5e3", ".inf", "-.NaN",
           "2026-11-30", "2026-11-30T10:00:00Z", "<<", "=", "--port", "8000", "a b", "", "0.33.0",
           "true", "FALSE", "+12", "1_000", "12:30:00", "vllm/vllm-openai:v0.30.0", "'q'", '"d"',
           "&a x", "!!str 5", "|\n  block\n", ">-\n  folded\n  text\n"]


def _docs(rng: random.Random, n: int):
    for _ in range(n):
        items = [rng.choice(_PIECES) for _ in range(rng.randrange(1, 6))]
        yield "".join(f"k{i}: {v}\n" if "\n" not in v else f"k{i}: {v}" for i, v in enumerate(items))
        yield "[" + ", ".join(v for v in items if "\n" not in v) + "]\n"
        yield "".join(f"- {v}\n" if "\n" not in v else f"- {v}" for v in items)


def _tags(node, out):
    out.append((type(node).__name__, node.tag, node.value if isinstance(node, ScalarNode) else None))
    if isinstance(node.value, list):
        for item in node.value:
            for sub in item if isinstance(item, tuple) else (item,):
                _tags(sub, out)
    return out


def test_cached_resolver_gives_safe_loaders_tags():
    rng = random.Random(11)
    for text in _docs(rng, 300):
        try:
            want = [_tags(r, []) for r in yaml.compose_all(text, Loader=yaml.SafeLoader)]
        except yaml.YAMLError:
            continue
        roots, problem = yn.compose_text(text)
        assert problem is None
        # Twice: the second time every tag comes from the cache.
        assert [_tags(r, []) for r in roots] == want, text
        assert [_tags(r, []) for r in yn.compose_text(text + "\n")[0]] == want, text


def _scalars(node, out):
    if isinstance(node, ScalarNode):
        out.append(node)
    elif isinstance(node.value, list):
        for item in node.value:
            for sub in item if isinstance(item, tuple) else (item,):
                _scalars(sub, out)
    return out


def test_verbatim_words_and_spans_match_the_slow_path():
    rng = random.Random(5)
    seen = 0
    for text in _docs(rng, 300):
        roots, problem = yn.compose_text(text)
        if problem is not None:
            continue
        for base in (0, 3):
            padded = "#\n\n"[:base] + text
            src = yn.Src(padded, base)
            for root in roots:
                for node in _scalars(root, []):
                    s, e = yn._scalar_bounds(padded, src.start(node), src.end(node), node.style)
                    assert src.span(node) == Span(s, max(s, e))
                    m = yn.scalar_map(padded, src.start(node), src.end(node), node.style, node.value)
                    slow = (Word(m.text, src.span(node), m.offsets[0])
                            if not m.approx and m.is_verbatim() else None)
                    fast = yn.verbatim_word(src, node)
                    assert fast == slow, (padded, node)
                    assert yn.verbatim_word(src, node, src.span(node)) == slow
                    seen += fast is not None
    assert seen > 500
