#!/usr/bin/env bash
# servelint: vllm=0.30.0
# A DFlash draft mixing sliding-window and full-attention layers needs Model Runner V2.
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve ../../../conformance/models/qwen3 \
    --speculative-config '{"method": "dflash", "model": "../../../conformance/rules/models/qwen3-dflash-mixed-draft", "num_speculative_tokens": 3}'
