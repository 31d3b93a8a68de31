#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-fp8-scale-path scales.json
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-fp8-scale-save-path scales.json
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-attn-dtype fp8 --mm-encoder-fp8-scale-save-path scales.json
