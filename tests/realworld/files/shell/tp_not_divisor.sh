#!/bin/bash
# Three-GPU box: try to use all of them.
vllm serve meta-llama/Meta-Llama-3.1-70B \
  --tensor-parallel-size 3 \
  --max-model-len 8192
