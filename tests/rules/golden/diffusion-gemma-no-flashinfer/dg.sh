#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/diffusion-gemma --attention-backend FLASHINFER
vllm serve ../../../conformance/rules/models/diffusion-gemma --attention-config '{"backend": "flashinfer"}'
# Other backends, or another model: silent.
vllm serve ../../../conformance/rules/models/diffusion-gemma --attention-backend TRITON_ATTN
vllm serve ../../../conformance/rules/models/diffusion-gemma --attention-backend auto
vllm serve ../../../conformance/rules/models/qwen4exp --attention-backend FLASHINFER
