#!/bin/sh
# servelint: vllm=0.33.0
# run_multi_api_server: the oracle does not run it
VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve ../../../conformance/models/deepseek-v3 --enable-lora -dp 4
VLLM_ALLOW_RUNTIME_LORA_UPDATING=true vllm serve ../../../conformance/models/llama --enable-lora --api-server-count 2
# accepted: one API server
VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve ../../../conformance/models/deepseek-v3 --enable-lora -dp 4 --api-server-count 1
VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve ../../../conformance/models/deepseek-v3 --enable-lora -dp 4 --data-parallel-rank 0
VLLM_ALLOW_RUNTIME_LORA_UPDATING=0 vllm serve ../../../conformance/models/deepseek-v3 --enable-lora -dp 4
