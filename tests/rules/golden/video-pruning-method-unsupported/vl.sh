#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/qwen2.5-vl --video-pruning-rate 0.5 --video-pruning-method vidcom2
vllm serve ../../../conformance/rules/models/qwen2.5-vl --video-pruning-method=vidcom2 --video-pruning-rate=0.25
# The method it supports, no pruning (rate 0 or unset), or a model that supports both: silent.
vllm serve ../../../conformance/rules/models/qwen2.5-vl --video-pruning-rate 0.5
vllm serve ../../../conformance/rules/models/qwen2.5-vl --video-pruning-rate 0 --video-pruning-method vidcom2
vllm serve ../../../conformance/rules/models/qwen2.5-vl --video-pruning-method vidcom2
vllm serve Qwen/Qwen3-VL-8B-Instruct --video-pruning-rate 0.5 --video-pruning-method vidcom2
