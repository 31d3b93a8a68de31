#!/usr/bin/env bash
# servelint: vllm=0.31.0
# vLLM lists every feature V2 lacks: here the n-gram method and parallel drafting.
export VLLM_USE_V2_MODEL_RUNNER=1
vllm serve ../../../conformance/models/qwen3 \
    --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "parallel_drafting": true}'
