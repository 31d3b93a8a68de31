#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
# Attribution on, or eager mode, or CUDA graphs off: silent.
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true}'
vllm serve ../../../conformance/models/llama --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
vllm serve ../../../conformance/models/llama -cc '{"cudagraph_mode": "NONE"}' --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
