#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/grpc_port_without_rust.
vllm serve ../../../conformance/models/llama --grpc-port 50051
