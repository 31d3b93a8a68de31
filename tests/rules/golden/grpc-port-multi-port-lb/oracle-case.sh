#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/grpc_port_multi_port_lb.
VLLM_USE_RUST_FRONTEND=1 vllm serve ../../../conformance/models/llama -dp 2 -dpl 2 --data-parallel-multi-port-external-lb --grpc-port 50051
