#!/bin/sh
# servelint: vllm=0.33.0
# A float16 checkpoint run in bfloat16 loses precision.
vllm serve ../../../deployment/models/qwen2.5-7b-awq --dtype bfloat16
# Llama 3.1 ships bfloat16 weights; float16 is a choice only on GPUs with
# bfloat16, which this file does not say: silent.
vllm serve meta-llama/Llama-3.1-8B-Instruct --dtype half
# Upcasting to float32 and the checkpoint's own type are fine.
vllm serve meta-llama/Llama-3.1-8B-Instruct --dtype float32
vllm serve meta-llama/Llama-3.1-8B-Instruct --dtype bfloat16
