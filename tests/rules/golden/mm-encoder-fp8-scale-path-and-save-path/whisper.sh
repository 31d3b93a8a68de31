#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-attn-dtype fp8 \
    --mm-encoder-fp8-scale-path scales.json --mm-encoder-fp8-scale-save-path new-scales.json
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-attn-dtype fp8 --mm-encoder-fp8-scale-path scales.json
