#!/bin/sh
# servelint: vllm=0.33.0
# Nsight profiling of Ray workers, on one GPU without Ray.
vllm serve ../../../conformance/models/llama \
  --ray-workers-use-nsight
