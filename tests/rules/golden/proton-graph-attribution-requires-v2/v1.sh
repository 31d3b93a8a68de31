#!/bin/sh
# servelint: vllm=0.33.0
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true}'
# Model Runner V2 (the default): silent.
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true}'
