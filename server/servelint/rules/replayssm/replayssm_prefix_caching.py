"""SL203: `--use-replayssm` with a prefix-caching mode the release rejects."""

from __future__ import annotations

from ...diagnostics import Applicability
from ._shared import BASE_READS, PC_READS, PREFIX, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMPrefixCaching(ReplaySSMRule):
    """`--use-replayssm` with a prefix-caching mode the release rejects.

    ## What it does
    Works out the Mamba cache mode vLLM derives (from prefix caching, whose
    default depends on the release and on whether the model is hybrid, and
    from `--mamba-cache-mode`) and reports:

    * 0.27.0-0.31.0, no speculative decoding: mode `all` ("supports prefix
      caching only in align mode"). In 0.27.x prefix caching is off by
      default for hybrid models but `--enable-prefix-caching` selects `all`;
      from 0.28.0 it is on by default and `all` must be asked for;
    * 0.29.0-0.31.0, Kimi RecoverSSM: modes other than `none`/`align`;
    * 0.30.0+, `--mamba-backend flashinfer`: prefix caching on (mode
      `align`), which FlashInfer ReplaySSM does not support yet;
    * 0.32.0+, Nemotron-H speculative decoding: prefix caching on.

    ## Why
    Prefix caching is on by default for hybrid models since 0.28.0, so a
    launch that only adds `--mamba-backend flashinfer` or a speculative
    config fails unless it also turns prefix caching off.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --mamba-backend flashinfer
    ```

    ## Fix
    `--no-enable-prefix-caching` (`--disable-prefix-caching` in 0.33.0) for
    FlashInfer and speculative decoding; `--mamba-cache-mode align` for `all`.

    ## Fix safety
    Unsafe: a new cache mode or turning prefix caching off changes how the
    launch runs; offered, never applied for you.

    ## Evidence
    `--use-replayssm`, the prefix-caching and Mamba-cache-mode flags, the
    backend and the speculative config as written, and, where a default
    decides the mode, the model's architecture (hybrid or not, Mamba prefix
    caching support) in the release's generated model registry. An
    inferred architecture makes it a warning; none, silent.

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`. The mode is derived by
    `MambaModelConfig.verify_and_update_config`
    (vllm/model_executor/models/config.py) from the prefix-caching default of
    `EngineArgs._set_default_chunked_prefill_and_prefix_caching_args`
    (vllm/engine/arg_utils.py): see `servelint.derive.cache`.
    """

    code = "SL203"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = checks("all", "fi_align", "rs_modes", "spec_none")
    name = PREFIX
    requires = ("--use-replayssm",)
    reads = BASE_READS | SPEC_READS | PC_READS | {"mamba_backend"}
