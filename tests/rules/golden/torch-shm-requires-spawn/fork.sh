#!/bin/sh
# servelint: vllm=0.33.0
VLLM_WORKER_MULTIPROC_METHOD=fork vllm serve ../../../conformance/rules/models/qwen2-vl --mm-tensor-ipc torch_shm
# Unset: vllm serve sets spawn itself, silent.
vllm serve ../../../conformance/rules/models/qwen2-vl --mm-tensor-ipc torch_shm
VLLM_WORKER_MULTIPROC_METHOD=spawn vllm serve ../../../conformance/rules/models/qwen2-vl --mm-tensor-ipc torch_shm
