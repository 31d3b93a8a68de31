"""SL208: what Kimi RecoverSSM (`--use-replayssm` with speculative decoding) requires."""

from __future__ import annotations

from ._shared import BASE_READS, RECOVER, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMRecoverSSM(ReplaySSMRule):
    """Kimi RecoverSSM (`--use-replayssm` with speculative decoding) requirements.

    ## What it does
    From 0.29.0, `--use-replayssm` with speculative decoding on a Kimi KDA
    model selects RecoverSSM, which rejects
    `--enable-mamba-cache-stochastic-rounding` and pipeline parallelism
    (`-pp` > 1).

    ## Why
    RecoverSSM keeps bfloat16/float32 state caches and runs on one pipeline
    stage; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm -pp 2 \\
      --speculative-config '{"method":"ngram","num_speculative_tokens":2}'
    ```

    ## Fix
    Remove the flag named in the message.

    ## Evidence
    `--use-replayssm`, the speculative config,
    `--enable-mamba-cache-stochastic-rounding` and `-pp` as written, and the
    model's architecture (a Kimi KDA model; silent when it is not known).

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`.
    """

    code = "SL208"
    vllm_checks = checks("sr", "pp")
    name = RECOVER
    requires = ("--use-replayssm",)
    since = "0.29.0"
    reads = BASE_READS | SPEC_READS | {"enable_mamba_cache_stochastic_rounding", "pipeline_parallel_size"}
