#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --speculative-config '{"model": "../../../conformance/models/qwen3"}'
