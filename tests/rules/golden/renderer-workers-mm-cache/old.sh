#!/bin/sh
# servelint: vllm=0.26.0
vllm serve ../../../conformance/rules/models/qwen2-audio --renderer-num-workers 4
# An encoder-decoder model runs without the cache: silent.
vllm serve ../../../conformance/rules/models/whisper --renderer-num-workers 4
