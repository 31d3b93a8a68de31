#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-attn-backend XFORMERS
vllm serve ../../../conformance/rules/models/whisper --mm-encoder-attn-backend TORCH_SDPA
