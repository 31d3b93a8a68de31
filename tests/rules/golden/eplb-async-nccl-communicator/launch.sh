#!/bin/sh
# servelint: vllm=0.33.0
# NCCL for expert weights, with asynchronous EPLB (the default).
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --enable-eplb -tp 8 --eplb-config '{"communicator": "torch_nccl"}'
