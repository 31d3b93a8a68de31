#!/bin/sh
# servelint: vllm=0.33.0
# A vision adapter for a text-only model.
vllm serve ../../../conformance/models/llama \
  --enable-lora --default-mm-loras '{"image": "/loras/vision"}'
