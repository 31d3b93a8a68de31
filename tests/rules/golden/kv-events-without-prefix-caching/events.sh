#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --no-enable-prefix-caching --kv-events-config '{"enable_kv_cache_events": true}'
# Prefix caching is on by default: silent.
vllm serve ../../../conformance/models/llama --kv-events-config '{"enable_kv_cache_events": true}'
