"""SL201: `--use-replayssm` on an architecture without ReplaySSM support."""

from __future__ import annotations

from ...diagnostics import Applicability
from ._shared import ARCH, BASE_READS, ReplaySSMRule, checks


class ReplaySSMArchitecture(ReplaySSMRule):
    """`--use-replayssm` on a model whose architecture does not support it.

    ## What it does
    Reports `--use-replayssm` when the model's architecture does not
    implement vLLM's `SupportsReplaySSM` interface: in 0.27.0-0.33.0 only
    Nemotron-H (`NemotronHForCausalLM`, `NemotronHPuzzleForCausalLM`) and
    the Kimi KDA models (`KimiLinearForCausalLM`,
    `KimiK3ForConditionalGeneration`) do. Mamba, Mamba2, Falcon-H1, Jamba,
    Zamba2, Granite-4 hybrids, the Nemotron-H VL models and every
    attention-only model are rejected. With this problem present
    servelint reports no other ReplaySSM problem: they concern a path this
    model cannot take.

    ## Why
    ReplaySSM appends a 3-tensor ring to the Mamba state; only models that
    opt in build consistent state shapes, so vLLM refuses the rest while
    building its config, after the model download.

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.7b --use-replayssm
    ```

    ## Fix
    Remove `--use-replayssm` (the fix), or serve a Nemotron-H model.

    ## Fix safety
    Safe: removing a conflicting flag; the launch then runs without ReplaySSM,
    as any release that rejects it would require.

    ## Evidence
    `--use-replayssm` as the launch leaves it (the last spelling wins) and
    the model's architecture: from its `config.json` (a local directory or
    the Hugging Face cache), else from servelint's table of known model
    ids; its `supports_replayssm` comes from the release's generated model
    registry. An architecture only inferred from the model's name makes it a
    warning that says so; no architecture at all, silent.

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`; `ModelConfig.supports_replayssm`
    is the registry's `_ModelInfo.supports_replayssm`
    (vllm/model_executor/models/interfaces.py, `SupportsReplaySSM`).
    """

    code = "SL201"
    fixes = frozenset({Applicability.SAFE})
    vllm_checks = checks("arch")
    name = ARCH
    requires = ("--use-replayssm",)
    reads = BASE_READS
