#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_c/watermark_dflash2.
vllm serve ../../../conformance/models/qwen3 --watermark-config '{"key": 1, "allow_target_only_watermarking": true}' \
    --speculative-config '{"method": "dflash", "model": "../../../conformance/rules/models/qwen3-dflash2-draft", "num_speculative_tokens": 3, "draft_sample_method": "probabilistic"}'
