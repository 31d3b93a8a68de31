#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --return-sampling-mask
vllm serve ../../../conformance/models/qwen3 --return-sampling-mask --logprobs-mode raw_logits
