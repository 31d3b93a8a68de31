"""SL302: `--max-model-len` longer than the model's own context."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...derive.model import derived_max_len
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note

_ENV = "VLLM_ALLOW_LONG_MAX_MODEL_LEN"
_WARNING = (
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the model uses relative position "
    "encoding (RoPE), positions exceeding derived_max_model_len lead to nan. If the model uses absolute "
    "position encoding, positions exceeding derived_max_model_len will cause a CUDA array out-of-bounds error."
)


class MaxModelLenExceedsDerived(Rule):
    """`--max-model-len` above the length the model's config.json allows.

    ## What it does
    Reports a written `--max-model-len` greater than the length vLLM
    derives from the model's config.json:

    * the smallest of `max_position_embeddings`, `n_positions`,
      `max_seq_len`, `seq_length`, `max_target_positions`,
      `max_sequence_length`, `max_seq_length`, `seq_len` of the text
      config (`model_max_length` wins when present);
    * with `--disable-sliding-window`, at most `sliding_window`;
    * times the RoPE scaling `factor`, except for `su`, `longrope` and
      `llama3` RoPE and Gemma 3 models; from 0.30.0 also not for `yarn`,
      `deepseek_yarn` and `deepseek_llama_scaling`; up to 0.29.0 a `yarn`
      entry first resets the length to its `original_max_position_embeddings`.

    With `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1` (or `true`) in the launch's
    environment it is a warning, as in vLLM. Silent without a config.json,
    with `--hf-overrides`, `--runner` or `--convert`, for pooling models
    (the tokenizer may lower the limit), sentence-transformers directories
    and unknown RoPE types.

    ## Why
    Positions beyond what the model was trained for give NaNs or
    out-of-bounds errors, so vLLM stops with "User-specified max_model_len
    (200000) is greater than the derived max_model_len
    (max_position_embeddings=131072.0 or model_max_length=None in model's
    config.json). ..."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 200000
    ```

    ## Fix
    Lower `--max-model-len` to the derived length or less, or extend the
    context with RoPE scaling through `--hf-overrides`; set
    `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1` only if you know the model copes.

    ## Evidence
    A written `--max-model-len` and the model's config.json (a local
    directory or the Hugging Face cache); the environment the file gives the
    launch for `VLLM_ALLOW_LONG_MAX_MODEL_LEN` (a value only known at run
    time makes the rule silent).

    ## vLLM source
    `_get_and_verify_max_len` (vllm/config/model.py, the same text in every
    release); the keys: `derive_max_model_len_and_key`
    (vllm/transformers_utils/model_arch_config_convertor.py); the float:
    `ModelArchitectureConfig.derived_max_model_len_and_key`
    (vllm/config/model_arch.py); the environment variable: vllm/envs.py
    (`"1"` or `"true"`, any case).
    """

    code = "SL302"
    vllm_checks = (VllmCheck("max_len", "than the derived max_model_len", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "max-model-len-exceeds-derived"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-model-len"
    requires = (
        "--convert", "--disable-sliding-window", "--hf-overrides", "--max-model-len", "--runner",
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN",
    )
    reads = frozenset({"model", "hf_overrides", "max_model_len", "disable_sliding_window", "runner", "convert", _ENV})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        v = value_of(inv, "max_model_len")
        if v.how != "flag" or not is_int(v.value) or v.value <= 0:
            return
        derived = derived_max_len(ctx)
        if derived is None or v.value <= derived.value:
            return
        mml = derived.model_max_length
        if mml is not None and not (is_int(mml) or isinstance(mml, float)):
            return
        if mml is not None and v.value <= mml:
            return
        severity = None
        var = inv.env.get(_ENV)
        if var is not None:
            if var.value is None:
                return  # set to something only known at run time
            if var.value.strip().lower() in ("1", "true"):
                severity = Severity.WARNING
        msg = (
            f"User-specified max_model_len ({v.value}) is greater than the derived max_model_len "
            f"({derived.key}={derived.value} or model_max_length={mml} in model's config.json)."
        )
        if severity is None:
            message = f"{msg} To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. {_WARNING}"
            shown = msg + " Set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 to override (with caution)."
        else:
            message = None  # vLLM only logs it
            shown = msg + f" vLLM goes on because {_ENV} is set: {_WARNING}"
        rel = [r for r in [model_note(ctx)] if r is not None]
        if severity is not None and var.span is not None:
            rel.append(Related(ctx.path, var.span, f"{_ENV} lets vLLM accept it"))
        yield finding(ctx, v.flags[-1], message, "max_len", message=shown, severity=severity, related_to=rel)
