#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case kernel/cutedsl_with_deepep.
vllm serve ../../../conformance/models/llama --moe-backend flashinfer_moe_ep_cutedsl --all2all-backend deepep_low_latency
