#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --kv-events-config '{"publisher": "zmq", "endpoint": "tcp://*:5557"}'
# Events on: silent.
vllm serve ../../../conformance/models/llama --kv-events-config '{"publisher": "zmq", "enable_kv_cache_events": true}'
# The null publisher: silent.
vllm serve ../../../conformance/models/llama --kv-events-config '{"publisher": "null"}'
