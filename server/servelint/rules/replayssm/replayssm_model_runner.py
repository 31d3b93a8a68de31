"""SL206: `--use-replayssm` with the Model Runner (V1/V2) the release rejects."""

from __future__ import annotations

from ._shared import BASE_READS, PC_READS, RUNNER, SPEC_READS, V2_READS, ReplaySSMRule, checks


class ReplaySSMModelRunner(ReplaySSMRule):
    """`--use-replayssm` with the wrong Model Runner (V1/V2).

    ## What it does
    Works out which Model Runner vLLM picks (`VLLM_USE_V2_MODEL_RUNNER` from
    the launch's environment: shell prefix or export, Kubernetes `env`,
    compose `environment`; else the default on the declared target, V2 on
    CUDA unless a feature V2 lacks applies) and reports:

    * 0.30.0+: Triton ReplaySSM (the default backend) under Model Runner
      V2. On a CUDA GPU this is the default, so a plain
      `--use-replayssm` launch fails there;
    * 0.29.0+, Kimi RecoverSSM with prefix caching under V1.

    ## Why
    The Triton ReplaySSM path exists only in Model Runner V1 and RecoverSSM's
    align mode only in V2; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm    # vLLM 0.33.0 on a GPU
    ```

    ## Fix
    Run with `VLLM_USE_V2_MODEL_RUNNER=0`, or use `--mamba-backend
    flashinfer` with prefix caching off.

    ## Evidence
    `--use-replayssm`, the backend, the prefix-caching flags and the
    environment the file gives the launch; the runner vLLM picks by default
    on the declared target (`cuda` unless the settings say otherwise). A
    variable set to something only known at run time, a flag of the
    features V2 lacks that servelint does not evaluate, or a ROCm target
    before 0.32.0 make the runner unknown, and the rule silent.

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`. The runner:
    `VllmConfig.use_v2_model_runner` and
    `_get_v2_model_runner_unsupported_features` (vllm/config/vllm.py, see
    `servelint.derive.runner`).
    """

    code = "SL206"
    vllm_checks = checks("v1", "rs_v2")
    name = RUNNER
    requires = ("--use-replayssm",)
    since = "0.29.0"
    reads = BASE_READS | SPEC_READS | PC_READS | V2_READS | {"mamba_backend"}
