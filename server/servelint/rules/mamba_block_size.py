"""Mamba cache flags checked without ``--use-replayssm``.

``--mamba-block-size`` needs prefix caching (``VllmConfig.
validate_mamba_block_size``), and ``--mamba-backend`` must name a
``MambaBackendEnum`` member.  Both depend on what vLLM derives, not only on
what is written: the prefix-caching default of the release and the model
(see ``vllm_state.prefix_caching``), and the upper-casing of the backend.
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Applicability, Category, Fix, Related, Severity
from ..edits import remove_flag
from ..knowledge.validators import VllmCheck
from . import vllm_state as st
from .base import Context, Finding, Rule, vllm_source

# With no config.json at hand the model's max_model_len is unknown; a block
# size below this is still taken as set: no model vLLM serves derives a
# shorter context (GPT-2's 1024 is the shortest in common use).
_SHORTEST_CONTEXT = 1024


class MambaBlockSizeWithoutPrefixCaching(Rule):
    """`--mamba-block-size` while prefix caching is off.

    ## What it does
    Reports `--mamba-block-size N` when prefix caching ends up off: turned
    off explicitly (`--no-enable-prefix-caching`, `--disable-prefix-caching`),
    or left at a default that is off for this model in this release:

    * attention-free models (Mamba, Mamba2, FalconMamba): off in every release;
    * hybrid models (Nemotron-H, Falcon-H1, Jamba...): off up to 0.27.1, on
      from 0.28.0;
    * other decoder models: on.

    A block size equal to the model's `max_model_len` counts as unset, as in
    vLLM (that is the value vLLM itself uses when prefix caching is off);
    without the model's `config.json` only sizes below 1024 are judged. When
    the architecture is only inferred from the model's name, the diagnostic
    is a warning and says so.

    ## Why
    The Mamba block size is the granularity of Mamba prefix caching; without
    prefix caching vLLM refuses it while building its config, after the
    model download.

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.8b-hf --mamba-block-size 256
    ```

    ## Fix
    Remove `--mamba-block-size` (the fix; it has no effect without prefix
    caching), or add `--enable-prefix-caching`.


    ## Fix safety
    Safe: without prefix caching `--mamba-block-size` has no effect but the
    error, so removing it leaves the launch vLLM would run.
    ## vLLM source
    `VllmConfig.validate_mamba_block_size`, vllm/config/vllm.py:
    0.27.0/0.27.1:2324-2336, 0.28.0:2544, 0.29.0:2836, 0.30.0:3197,
    0.31.0:3433, 0.32.0:3305, 0.33.0:3441, 0.25.0:2214, 0.26.0:2293.
    Prefix-caching default:
    `_set_default_chunked_prefill_and_prefix_caching_args`
    (engine/arg_utils.py 0.25.0:2484, 0.26.0:2520, 0.27.1:2604, 0.28.0:2650,
    0.33.0:3045) and `ModelConfig.is_prefix_caching_supported`
    (config/model.py 0.25.0:1845, where it is False for hybrid models;
    0.28.0:2034, 0.33.0:2239); `MambaModelConfig` sets the block size to `max_model_len`
    when prefix caching is off (model_executor/models/config.py 0.28.0:589,
    0.33.0:750).
    """

    code = "SL210"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = (VllmCheck("mamba_block_size", "--mamba-block-size can only be set with --enable-prefix-caching", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-block-size-prefix-caching"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    anchor = "--mamba-block-size"
    partners = ("--enable-prefix-caching",)
    reads = frozenset({"mamba_block_size", "enable_prefix_caching", "max_model_len", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = st.last_flag(inv, "mamba_block_size")
        if flag is None:
            return
        size = st.value_of(inv, "mamba_block_size")
        if not size.known or not isinstance(size.value, int) or size.value <= 0:
            return  # unset ("None"), or a value another rule reports
        max_len = st.max_model_len(ctx)
        if max_len.value is None:
            if size.value >= _SHORTEST_CONTEXT:
                return  # might be the model's max_model_len, which counts as unset
        elif size.value == max_len.value:
            return  # equal to max_model_len counts as unset (or might, when guessed)
        pc = st.prefix_caching(ctx)
        if pc.value is not False:
            return
        message = "--mamba-block-size can only be set with --enable-prefix-caching"
        clauses = []
        if pc.how != "flag" and pc.why:
            clauses.append(pc.why)
        severity = None
        model = ctx.model
        if pc.how == "default" and model is not None and model.inferred:
            severity = self.severity.lower()
            clauses.append(f"architecture {model.architecture} inferred from {model.detail.removeprefix('inferred from ')}")
        shown = message + (f" ({'; '.join(clauses)})" if clauses else "")
        path = (flag.word.path if flag.word is not None else None) or ctx.path
        related = [
            Related((f.word.path if f.word is not None else None) or ctx.path, f.name_span, f"prefix caching turned off by {f.written}")
            for f in pc.flags
        ]
        fixes = []
        text = ctx.text_of(path)
        if text is not None:
            edits = []
            for f in st.written(inv, "mamba_block_size"):
                fpath = (f.word.path if f.word is not None else None) or ctx.path
                ftext = ctx.text_of(fpath)
                if ftext is None:
                    edits = []
                    break
                edits.extend(remove_flag(ftext, f, fpath))
            if edits:
                fixes.append(Fix("Remove --mamba-block-size", edits, applicability=Applicability.SAFE, preferred=True))
        yield Finding(
            flag.name_span, shown, flag="--mamba-block-size", severity=severity, related=related, fixes=fixes,
            vllm_message=message, path=path,
            data={"vllm_source": vllm_source(ctx, "mamba_block_size")},
        )


class MambaBackendUnknown(Rule):
    """`--mamba-backend` value that is not a Mamba backend.

    ## What it does
    Reports a `--mamba-backend` value that is not `triton`, `flashinfer` or
    (from 0.27.0) `cpu` in any letter case, in releases whose parser accepts
    any string for it (where argparse checks choices, `invalid-value` reports
    it).
    `TRITON` and `FlashInfer` are fine: vLLM upper-cases the value.

    ## Why
    vLLM converts the value with `MambaBackendEnum[value.upper()]` while
    building its config and stops with "Unknown Mamba SSU backend".

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --mamba-backend flash-infer
    ```

    ## Fix
    Use `triton`, `flashinfer` or `cpu`.

    ## vLLM source
    `_MambaBackendEnumMeta.__getitem__`, vllm/config/mamba.py:14-22 (the same
    in 0.25.0-0.33.0; the `CPU` member exists from 0.27.0), called from `EngineArgs.create_engine_config`
    (engine/arg_utils.py 0.25.0:2246, 0.26.0:2278, 0.27.1:2365, 0.28.0:2402, 0.29.0:2518, 0.30.0:2535,
    0.31.0:2661, 0.32.0:2732, 0.33.0:2773).
    """

    code = "SL211"
    vllm_checks = (VllmCheck("mamba_backend_unknown", "Unknown Mamba SSU backend: ", "vllm/config/mamba.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-backend-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    anchor = "--mamba-backend"
    reads = frozenset({"mamba_backend"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        opt = inv.knowledge.by_dest.get("mamba_backend")
        if opt is None or opt.choices is not None:
            return
        flag = st.last_flag(inv, "mamba_backend")
        if flag is None or not flag.values or not flag.exact:
            return
        word = flag.values[0]
        name = word.text.upper()
        backends = st.mamba_backends(ctx.version)
        if name in backends:
            return
        valid = ", ".join(backends)
        message = f"Unknown Mamba SSU backend: '{name}'. Valid options are: {valid}"
        path = (word.path if word.path is not None else None) or ctx.path
        yield Finding(word.span, message, flag="--mamba-backend", vllm_message=message, path=path,
                      data={"vllm_source": vllm_source(ctx, "mamba_backend_unknown")})
