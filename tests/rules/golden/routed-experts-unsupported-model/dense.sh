#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --enable-return-routed-experts
vllm serve ../../../conformance/models/mixtral --enable-return-routed-experts --runner pooling
