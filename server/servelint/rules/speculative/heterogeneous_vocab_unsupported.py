"""SL410: `use_heterogeneous_vocab` with a method, sampler or reduction it does not support."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, settled_method, speculative_written

_PATH = "vllm/config/speculative.py"
_METHOD = VllmCheck("speculative.heterogeneous_vocab_method", "use_heterogeneous_vocab only works with method='draft_model'", _PATH)
_GREEDY = VllmCheck("speculative.heterogeneous_vocab_greedy", "use_heterogeneous_vocab currently only supports greedy draft sampling.", _PATH)
_ARGMAX = VllmCheck("speculative.heterogeneous_vocab_argmax", "use_heterogeneous_vocab is not compatible with use_local_argmax_reduction", _PATH)


class HeterogeneousVocabUnsupported(Rule):
    """`use_heterogeneous_vocab` outside plain draft models with greedy draft sampling.

    ## What it does
    Reports `use_heterogeneous_vocab: true` in a speculative config when
    the method vLLM settles on is not `draft_model` (an EAGLE head, MTP,
    n-gram, ...), when `draft_sample_method` is not `greedy`, or (0.33.0)
    when `use_local_argmax_reduction` is on.

    ## Why
    A draft with another tokenizer is supported by intersecting the two
    vocabularies token by token, which only the plain draft-model proposer
    does, on the full greedy draft logits. vLLM stops with
    "use_heterogeneous_vocab only works with method='draft_model'", "...
    only supports greedy draft sampling" or "... is not compatible with
    use_local_argmax_reduction".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 3, "use_heterogeneous_vocab": true}'
    ```

    ## Fix
    Use a draft model of another family only with `"method": "draft_model"`
    and greedy draft sampling; otherwise drop `use_heterogeneous_vocab`.

    ## Evidence
    The speculative config as written; for a `model` without `method`, the
    draft's name or config.json decides the method (the method check is
    silent when neither is at hand).

    ## vLLM source
    `SpeculativeConfig._verify_args`.
    """

    code = "SL410"
    name = "heterogeneous-vocab-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_METHOD, _GREEDY, _ARGMAX)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.args.get("use_heterogeneous_vocab") is not True:
            return
        s = p.args
        method = settled_method(p)
        if method is not None and method != "draft_model":
            yield key_finding(ctx, s, "use_heterogeneous_vocab", _METHOD.needle, _METHOD.key,
                          note=f"the method is {method!r}")
        sampling = s.values.get("draft_sample_method", "greedy")
        if sampling == "probabilistic":
            message = ("use_heterogeneous_vocab currently only supports greedy draft sampling. Set "
                       "draft_sample_method='greedy' (the default) or omit it.")
            yield key_finding(ctx, s, "draft_sample_method", message, _GREEDY.key)
        if s.get("use_local_argmax_reduction") is True and validators.has(_ARGMAX.key, ctx.version):
            message = ("use_heterogeneous_vocab is not compatible with use_local_argmax_reduction because "
                       "token-level intersection requires the full draft logits.")
            yield key_finding(ctx, s, "use_local_argmax_reduction", message, _ARGMAX.key)
