"""SL204: `--use-replayssm` with a Mamba backend the release rejects."""

from __future__ import annotations

from ...diagnostics import Applicability
from ._shared import BACKEND, BASE_READS, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMMambaBackend(ReplaySSMRule):
    """`--use-replayssm` with a Mamba backend the release rejects.

    ## What it does
    Reports the `--mamba-backend` (case-insensitive: vLLM upper-cases it)
    that does not fit ReplaySSM:

    * 0.27.0-0.29.0: anything but `triton`;
    * 0.30.0+: anything but `triton` or `flashinfer` (so `cpu`);
    * Kimi RecoverSSM (speculative decoding, 0.30.0+): anything but `triton`;
    * 0.32.0+, Nemotron-H speculative decoding: anything but `flashinfer`
      (including the default, triton).

    ## Why
    The ReplaySSM kernels exist only for these backends; vLLM stops while
    building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --mamba-backend cpu
    ```

    ## Fix
    Use the backend the message names (the fix changes the value).

    ## Fix safety
    Unsafe: a different Mamba backend changes what the launch runs; offered,
    never applied for you.

    ## Evidence
    `--use-replayssm` and `--mamba-backend` as written (silent for a value
    only known at run time or one that is no backend, which
    `mamba-backend-unknown` reports), the speculative config, and for the
    speculative cases the model's architecture (Kimi KDA or not).

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`. The flag is converted by
    `MambaBackendEnum[value.upper()]` in `EngineArgs.create_engine_config`
    (vllm/engine/arg_utils.py).
    """

    code = "SL204"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = checks("triton", "triton_fi", "rs_triton", "spec_fi")
    name = BACKEND
    requires = ("--use-replayssm",)
    reads = BASE_READS | SPEC_READS | {"mamba_backend"}
