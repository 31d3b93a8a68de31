#!/bin/sh
# servelint: vllm=0.33.0
# An SSU algorithm for the Triton backend, which has only one.
vllm serve ../../../conformance/models/mamba2 \
  --mamba-ssu-algorithm simple
