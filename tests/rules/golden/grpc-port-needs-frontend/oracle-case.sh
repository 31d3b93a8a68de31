#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/grpc_port_headless.
VLLM_USE_RUST_FRONTEND=1 vllm serve ../../../conformance/models/llama --headless --grpc-port 50051
