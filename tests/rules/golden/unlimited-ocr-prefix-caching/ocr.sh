#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/unlimited-ocr --enable-prefix-caching
vllm serve ../../../conformance/rules/models/unlimited-ocr --enable-prefix-caching --attention-backend TRITON_ATTN
# FLASH_ATTN depends on FlashAttention 4 being there: silent.
vllm serve ../../../conformance/rules/models/unlimited-ocr --enable-prefix-caching --attention-backend FLASH_ATTN
vllm serve ../../../conformance/rules/models/unlimited-ocr
