#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/mixtral --enable-return-routed-experts --no-enable-prefix-caching
