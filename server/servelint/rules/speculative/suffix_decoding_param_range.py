"""SL417: suffix decoding parameters out of range."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import int_key, key_finding, number_key, speculative_written

_PATH = "vllm/config/speculative.py"
_DEPTH = VllmCheck("speculative.suffix_tree_depth", "suffix_decoding_max_tree_depth={} must be >= 1", _PATH)
_CACHED = VllmCheck("speculative.suffix_cached_requests", "suffix_decoding_max_cached_requests={} must be >= 0", _PATH)
_FACTOR = VllmCheck("speculative.suffix_spec_factor", "suffix_decoding_max_spec_factor={} must be >= 0", _PATH)
_PROB = VllmCheck("speculative.suffix_min_token_prob", "suffix_decoding_min_token_prob={} must be in [0, 1]", _PATH)


class SuffixDecodingParamRange(Rule):
    """Suffix decoding with a tree depth, cache size, spec factor or token probability out of range.

    ## What it does
    Reports, for `method: suffix`, a `suffix_decoding_max_tree_depth` below
    1, a `suffix_decoding_max_cached_requests` or
    `suffix_decoding_max_spec_factor` below 0, or a
    `suffix_decoding_min_token_prob` outside [0, 1].

    ## Why
    vLLM checks them while building its config and stops, e.g.
    "suffix_decoding_max_tree_depth=0 must be >= 1". It first needs the
    Arctic Inference package: without it the launch stops with "Arctic
    Inference is required for suffix decoding" whatever the values.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "suffix", "suffix_decoding_min_token_prob": 10}'
    ```

    ## Fix
    Use a tree depth of at least 1, a non-negative cache size and spec
    factor, and a probability between 0 and 1 (the defaults: 24, 10000, 1.0,
    0.1).

    ## Evidence
    The speculative config as written.

    ## vLLM source
    `SpeculativeConfig._validate_suffix_decoding`, after its import check of
    `arctic_inference`.
    """

    code = "SL417"
    name = "suffix-decoding-param-range"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_DEPTH, _CACHED, _FACTOR, _PROB)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "suffix":
            return
        s = p.args
        depth = int_key(s, "suffix_decoding_max_tree_depth")
        cached = int_key(s, "suffix_decoding_max_cached_requests")
        factor = number_key(s, "suffix_decoding_max_spec_factor")
        prob = number_key(s, "suffix_decoding_min_token_prob")
        if depth is not None and depth < 1:
            yield key_finding(ctx, s, "suffix_decoding_max_tree_depth",
                          f"suffix_decoding_max_tree_depth={depth} must be >= 1", _DEPTH.key)
        if cached is not None and cached < 0:
            yield key_finding(ctx, s, "suffix_decoding_max_cached_requests",
                          f"suffix_decoding_max_cached_requests={cached} must be >= 0", _CACHED.key)
        if factor is not None and factor < 0:
            yield key_finding(ctx, s, "suffix_decoding_max_spec_factor",
                          f"suffix_decoding_max_spec_factor={float(factor)} must be >= 0", _FACTOR.key)
        if prob is not None and not 0 <= prob <= 1:
            yield key_finding(ctx, s, "suffix_decoding_min_token_prob",
                          f"suffix_decoding_min_token_prob={float(prob)} must be in [0, 1]", _PROB.key)
