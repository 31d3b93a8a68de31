#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case profiler/torch_dir_without_torch.
vllm serve ../../../conformance/models/llama --profiler-config '{"torch_profiler_dir": "/tmp/traces"}'
