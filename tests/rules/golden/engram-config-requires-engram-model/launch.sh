#!/bin/sh
# servelint: vllm=0.33.0
# Llama has no n-gram embedding tables to place.
vllm serve ../../../conformance/models/llama \
  --engram-config '{}'
