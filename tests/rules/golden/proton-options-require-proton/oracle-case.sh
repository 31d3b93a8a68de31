#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case profiler/proton_options_without_proton.
vllm serve ../../../conformance/models/llama --profiler-config '{"proton_profiler_dir": "/tmp/proton", "proton_data": "trace"}'
