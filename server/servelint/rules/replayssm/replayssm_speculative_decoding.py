"""SL202: `--use-replayssm` with speculative decoding the release rejects."""

from __future__ import annotations

from ...diagnostics import Applicability
from ._shared import BASE_READS, SPEC, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMSpeculativeDecoding(ReplaySSMRule):
    """`--use-replayssm` with speculative decoding the release rejects.

    ## What it does
    Reports `--use-replayssm` combined with speculative decoding
    (`--speculative-config`/`-sc`, its dotted keys, or `--spec-method`,
    `--spec-model`, `--spec-tokens`) where vLLM refuses it:

    * 0.27.0-0.28.0: always ("--use-replayssm does not support speculative
      decoding");
    * 0.29.0-0.31.0: speculative decoding selects KDA RecoverSSM, which only
      Kimi KDA models have ("RecoverSSM is only supported for Kimi-K3 KDA");
    * 0.32.0+: allowed for Nemotron-H with `--mamba-backend flashinfer`,
      prefix caching off and a large enough `--replayssm-buffer-len`; those
      requirements are reported by `replayssm-mamba-backend`,
      `replayssm-prefix-caching` and `replayssm-buffer-length`.

    ## Why
    The replayed SSM ring cannot be kept consistent when draft tokens are
    verified and rolled back, so vLLM rejects the combination while building
    its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm \\
      --speculative-config '{"method":"ngram","num_speculative_tokens":3}'
    ```

    ## Fix
    Remove the speculative decoding flags (the fix), or drop `--use-replayssm`.

    ## Fix safety
    Safe: removing the conflicting speculative-decoding flags; the launch then
    runs without speculative decoding.

    ## Evidence
    `--use-replayssm`, the speculative config as `create_speculative_config`
    merges it (silent when a part of it is only known at run time) and, for
    0.29.0-0.31.0, the model's architecture (see `replayssm-architecture`).

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`; `num_speculative_tokens` is
    `speculative_config.num_speculative_tokens` (`VllmConfig.num_speculative_tokens`).
    """

    code = "SL202"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = checks("spec", "kimi")
    name = SPEC
    requires = ("--use-replayssm",)
    reads = BASE_READS | SPEC_READS
