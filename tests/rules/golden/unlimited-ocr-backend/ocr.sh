#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend FLASHINFER
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-config.backend=rocm_attn
# The three R-SWA backends, auto, an MSA alias (automatic selection), or a name vLLM refuses earlier: silent.
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend TRITON_ATTN
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend FLEX_ATTENTION
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend FLASH_ATTN
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend auto
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend TRITON_MSA
vllm serve ../../../conformance/rules/models/unlimited-ocr --attention-backend NO_SUCH_BACKEND
