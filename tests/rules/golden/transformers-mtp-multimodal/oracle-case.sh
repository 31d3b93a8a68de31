#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case speculative/transformers_mtp_multimodal.
vllm serve ../../../conformance/rules/models/llava-mtp --model-impl transformers --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
