#!/bin/sh
# servelint: vllm=0.33.0
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fbgemm_fp8
# Allowed: vLLM goes on and logs the deprecation.
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fbgemm_fp8 --allow-deprecated-quantization
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fp8
