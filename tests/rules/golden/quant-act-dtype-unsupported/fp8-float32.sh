#!/bin/sh
# servelint: vllm=0.33.0
# The checkpoint's fp8 quantization runs in bfloat16 or float16 only.
vllm serve ../../../conformance/top25/models/qwen3-fp8 --dtype float32
# MXFP4 runs in bfloat16 only.
vllm serve ../../../conformance/top25/models/qwen3-mxfp4 --dtype half
# Online fp8 quantization of an unquantized checkpoint.
vllm serve ../../../conformance/models/qwen3 --quantization fp8 --dtype float32
