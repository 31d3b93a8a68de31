#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case profiler/activities_duplicates.
vllm serve ../../../conformance/models/llama --profiler-config '{"profiler": "torch", "torch_profiler_dir": "/tmp/t", "torch_profiler_activities": ["CPU", "CPU"]}'
