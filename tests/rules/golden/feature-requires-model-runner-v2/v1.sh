#!/usr/bin/env bash
# servelint: vllm=0.33.0
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve ../../../conformance/models/qwen3 --enable-trace-replay
vllm serve ../../../conformance/models/mixtral --enable-return-routed-experts
vllm serve ../../../conformance/models/qwen3 --return-sampling-mask --logprobs-mode processed_logprobs
