#!/usr/bin/env bash
# servelint: vllm=0.33.0
# Ubatching makes vLLM fall back to Model Runner V1, which has no prefill context parallelism.
vllm serve ../../../conformance/models/mixtral --prefill-context-parallel-size 2 --ubatch-size 2 \
    --enable-expert-parallel --all2all-backend deepep_low_latency
