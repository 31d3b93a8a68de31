"""SL210: `--mamba-block-size` while prefix caching is off."""

from __future__ import annotations

from typing import Iterable

from ...derive.cache import prefix_caching
from ...derive.flags import last_flag, value_of, written
from ...derive.model import max_model_len_guess
from ...diagnostics import Applicability, Category, Fix, Related, Severity
from ...edits import remove_flag
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, inferred_architecture, path_of, vllm_source

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
    without the model's `config.json` only sizes below 1024 are judged.

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

    ## Evidence
    `--mamba-block-size` and the prefix-caching flags as written; where
    prefix caching is left at its default, the model's architecture in the
    release's generated registry (an architecture only inferred from the
    model's name makes it a warning that says so; none, silent); the model's
    `max_model_len` from `--max-model-len` or its `config.json`.

    ## vLLM source
    `VllmConfig.validate_mamba_block_size`. The prefix-caching default:
    `EngineArgs._set_default_chunked_prefill_and_prefix_caching_args`
    (vllm/engine/arg_utils.py) and `ModelConfig.is_prefix_caching_supported`
    (vllm/config/model.py), see `servelint.derive.cache`;
    `MambaModelConfig.verify_and_update_config` sets the block size to
    `max_model_len` when prefix caching is off
    (vllm/model_executor/models/config.py).
    """

    code = "SL210"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = (VllmCheck("mamba_block_size", "--mamba-block-size can only be set with --enable-prefix-caching",
                             "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-block-size-prefix-caching"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    anchor = "--mamba-block-size"
    partners = ("--enable-prefix-caching",)
    requires = ("--enable-prefix-caching", "--hf-overrides", "--mamba-block-size", "--max-model-len")
    reads = frozenset({"mamba_block_size", "enable_prefix_caching", "max_model_len", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = last_flag(inv, "mamba_block_size")
        if flag is None:
            return
        size = value_of(inv, "mamba_block_size")
        if not size.known or not isinstance(size.value, int) or size.value <= 0:
            return  # unset ("None"), or a value another rule reports
        max_len = max_model_len_guess(ctx)
        if max_len.value is None:
            if size.value >= _SHORTEST_CONTEXT:
                return  # might be the model's max_model_len, which counts as unset
        elif size.value == max_len.value:
            return  # equal to max_model_len counts as unset (or might, when guessed)
        pc = prefix_caching(ctx)
        if pc.value is not False:
            return
        message = "--mamba-block-size can only be set with --enable-prefix-caching"
        clauses = []
        if pc.how != "flag" and pc.why:
            clauses.append(pc.why)
        severity = None
        inferred = inferred_architecture(ctx)
        if pc.how == "default" and inferred:
            severity = self.severity.lower()
            clauses.append(inferred)
        shown = message + (f" ({'; '.join(clauses)})" if clauses else "")
        path = path_of(ctx, flag)
        related = [Related(path_of(ctx, f), f.name_span, f"prefix caching turned off by {f.written}") for f in pc.flags]
        fixes = []
        text = ctx.text_of(path)
        if text is not None:
            edits = []
            for f in written(inv, "mamba_block_size"):
                fpath = path_of(ctx, f)
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
