#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A watermark config forces Model Runner V2; with the variable unset, ubatching is "dual batch overlap".
vllm serve ../../../conformance/models/mixtral --watermark-config '{"key": 1}' --ubatch-size 2 \
    --enable-expert-parallel --all2all-backend deepep_low_latency
