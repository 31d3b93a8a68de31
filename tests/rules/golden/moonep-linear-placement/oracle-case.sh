#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/moonep_round_robin.
vllm serve ../../../conformance/models/mixtral --enable-expert-parallel --all2all-backend moonep --expert-placement-strategy round_robin
