"""SL207: `--use-replayssm` with a KV connector."""

from __future__ import annotations

from ._shared import BASE_READS, KV, SPEC_READS, ReplaySSMRule, checks


class ReplaySSMKVConnector(ReplaySSMRule):
    """`--use-replayssm` with a KV connector (P/D disaggregation, KV offload).

    ## What it does
    Reports `--use-replayssm` together with a KV connector: a
    `--kv-transfer-config` naming a `kv_connector` with a role (producer,
    consumer or both), or `--kv-offloading-size`, which makes vLLM create an
    offloading connector with role `kv_both`. From 0.33.0, Kimi RecoverSSM
    (speculative decoding on a KDA model) may use connectors.

    ## Why
    KV connectors transfer the Mamba state as a stock page, which the
    ReplaySSM ring does not fit; vLLM stops while building its config.

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --kv-offloading-size 8
    ```

    ## Fix
    Drop either the connector or `--use-replayssm`.

    ## Evidence
    `--use-replayssm`, `--kv-transfer-config` (its connector and role) and
    `--kv-offloading-size` as written; from 0.33.0 also the speculative
    config and the model's architecture (silent when either is unknown).

    ## vLLM source
    `VllmConfig.validate_mamba_cached_kernel`; `--kv-offloading-size`
    creates the connector in `VllmConfig._post_init_kv_transfer_config`.
    """

    code = "SL207"
    vllm_checks = checks("kv", "kv_kda_exempt")
    name = KV
    requires = ("--use-replayssm",)
    reads = BASE_READS | SPEC_READS | {"kv_transfer_config", "kv_offloading_size", "kv_offloading_backend"}
