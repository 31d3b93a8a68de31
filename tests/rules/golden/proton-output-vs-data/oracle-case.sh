#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case profiler/proton_chrome_trace_tree.
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/p", "proton_output_format": "chrome_trace"}'
