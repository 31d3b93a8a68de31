#!/bin/sh
# servelint: vllm=0.33.0
# Three offloaded layers out of groups of two.
vllm serve ../../../conformance/models/llama \
  --offload-group-size 2 --offload-num-in-group 3
