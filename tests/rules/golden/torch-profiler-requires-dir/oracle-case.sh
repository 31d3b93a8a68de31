#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case profiler/torch_without_dir.
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "torch"}'
