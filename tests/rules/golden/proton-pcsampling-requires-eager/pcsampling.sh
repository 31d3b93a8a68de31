#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_mode": "pcsampling"}'
# Eager mode: silent.
vllm serve ../../../conformance/models/llama --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_mode": "pcsampling"}'
