#!/usr/bin/env bash
# servelint: vllm=0.33.0
# --mm-encoder-attn-backend of a multimodal model (no oracle case: the
# oracle's environment cannot inspect Qwen2-VL, it has no torchvision).
vllm serve ../../../conformance/rules/models/qwen2-vl --mm-encoder-attn-backend flash_attention_2
# A text-only model never builds MultiModalConfig: silent.
vllm serve ../../../conformance/models/llama --mm-encoder-attn-backend flash_attention_2
# A member, in any case: silent.
vllm serve ../../../conformance/rules/models/qwen2-vl --mm-encoder-attn-backend torch_sdpa
