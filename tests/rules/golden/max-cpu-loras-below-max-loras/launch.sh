#!/bin/sh
# servelint: vllm=0.33.0
# Four adapters per batch, but room for two in the CPU cache.
vllm serve ../../../conformance/models/llama \
  --enable-lora --max-loras 4 --max-cpu-loras 2
