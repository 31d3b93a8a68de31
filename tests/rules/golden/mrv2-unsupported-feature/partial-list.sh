#!/usr/bin/env bash
# servelint: vllm=0.31.0
# vLLM refuses the launch for sure, but whether its list also names sequence parallelism
# depends on the model's size (tensor parallelism 2): servelint's own wording, no vLLM message.
export VLLM_USE_V2_MODEL_RUNNER=1
vllm serve ../../../conformance/models/qwen3 -tp 2 -pp 2 --distributed-executor-backend external_launcher
