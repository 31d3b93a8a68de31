"""SL343: a deprecated quantization method (fbgemm_fp8, fp_quant)."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...derive.quantization import resolved_method
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, path_of

_ERROR = VllmCheck("quantization.deprecated", "To bypass, set `--allow-deprecated-quantization`.", "vllm/config/model.py")
_WARNING = VllmCheck("quantization.deprecated_allowed",
                     "The quantization method %s is deprecated and will be removed in future versions of vLLM.",
                     "vllm/config/model.py", whole=True)

# ``DEPRECATED_QUANTIZATION_METHODS``
# (vllm/model_executor/layers/quantization/__init__.py, the same two in
# 0.25.0-0.33.0).
_DEPRECATED = ("fbgemm_fp8", "fp_quant")

_TEXT = "The quantization method {} is deprecated and will be removed in future versions of vLLM."
_BYPASS = " To bypass, set `--allow-deprecated-quantization`."


class QuantizationDeprecated(Rule):
    """A deprecated quantization method, `fbgemm_fp8` or `fp_quant`.

    ## What it does
    Reports `--quantization fbgemm_fp8` or `--quantization fp_quant` (the
    method vLLM resolves, with the checkpoint's `quantization_config`), on a
    CUDA target: an error without `--allow-deprecated-quantization`,
    a warning with it (vLLM then goes on and logs the deprecation).

    ## Why
    vLLM stops with "The quantization method fbgemm_fp8 is deprecated and
    will be removed in future versions of vLLM. To bypass, set
    `--allow-deprecated-quantization`." (vLLM passes the method as a second
    argument of the `ValueError` instead of formatting it, so the text it
    prints is that tuple: "('The quantization method %s is deprecated ...',
    'fbgemm_fp8')").

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fbgemm_fp8
    ```

    ## Fix
    Move to a maintained method (`fp8` reads FBGEMM FP8 checkpoints' weights
    for most models), or add `--allow-deprecated-quantization` while you
    migrate.

    ## Evidence
    A written `--quantization` and the method vLLM resolves from it and the
    checkpoint's config.json (
    see `servelint.derive.quantization`: silent where an override may claim
    the checkpoint) and the written `--allow-deprecated-quantization`. Only
    on CUDA: other platforms first check their own list of methods.

    ## vLLM source
    `ModelConfig._verify_quantization`, its last check.
    """

    code = "SL343"
    name = "quantization-deprecated"
    category = Category.DEPRECATED
    severity = Severity.ERROR
    vllm_checks = (_ERROR, _WARNING)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization"
    partners = ("--allow-deprecated-quantization",)
    requires = ("--quantization",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        method = resolved_method(ctx)
        if method not in _DEPRECATED:
            return
        inv = ctx.invocation
        allow = switch(inv, "allow_deprecated_quantization")
        if allow is None:
            return
        q = value_of(inv, "quantization")
        if q.how != "flag" or not q.flags:
            return
        anchor = q.flags[-1]
        rel = [r for r in [model_note(ctx)] if r is not None]
        text = _TEXT.format(method)
        if allow:
            allow_flag = value_of(inv, "allow_deprecated_quantization").flags
            rel += [Related(path_of(ctx, f), f.name_span, "--allow-deprecated-quantization lets vLLM go on")
                    for f in allow_flag]
            yield finding(ctx, anchor, None, _WARNING.key, message=text + " vLLM goes on with a warning.",
                          severity=Severity.WARNING, related_to=rel)
            return
        template = _TEXT.replace("{}", "%s") + _BYPASS
        vllm = str(ValueError(template, method))
        yield finding(ctx, anchor, vllm, _ERROR.key, message=text + _BYPASS, related_to=rel)
