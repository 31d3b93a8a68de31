#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/grpc_with_grpc_port.
vllm serve ../../../conformance/models/llama --grpc --grpc-port 50051
