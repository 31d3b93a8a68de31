"""SL205: `--replayssm-buffer-len` out of the range FlashInfer ReplaySSM accepts."""

from __future__ import annotations

from ...diagnostics import Applicability
from ._shared import BASE_READS, BUFFER, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMBufferLength(ReplaySSMRule):
    """`--replayssm-buffer-len` out of the range FlashInfer ReplaySSM accepts.

    ## What it does
    From 0.32.0: with `--mamba-backend flashinfer` the buffer length must be
    at most 16; with Nemotron-H speculative decoding it must be at least
    1 + `num_speculative_tokens` (the default is 16).

    ## Why
    The FlashInfer kernel holds B + T rows (T the verification length);
    vLLM rejects lengths it cannot serve while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --no-enable-prefix-caching \\
      --mamba-backend flashinfer --replayssm-buffer-len 32
    ```

    ## Fix
    Set `--replayssm-buffer-len` in range (the fix sets 16, or 1 + k).

    ## Fix safety
    Unsafe: a new buffer length changes what the launch runs; offered, never
    applied for you.

    ## Evidence
    `--use-replayssm`, `--replayssm-buffer-len` and `--mamba-backend` as
    written, the speculative config's `num_speculative_tokens` (silent when
    vLLM would take it from the draft model), and for speculative decoding
    the model's architecture (not Kimi KDA).

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`.
    """

    code = "SL205"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = checks("buf16", "spec_buf")
    name = BUFFER
    requires = ("--use-replayssm",)
    since = "0.32.0"
    reads = BASE_READS | SPEC_READS | {"replayssm_buffer_len", "mamba_backend"}
