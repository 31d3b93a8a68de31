#!/bin/sh
# servelint: vllm=0.33.0
# The backend chosen twice, differently.
vllm serve ../../../conformance/models/llama \
  --attention-backend FLASH_ATTN --attention-config '{"backend": "FLASHINFER"}'
