#!/bin/sh
# servelint: vllm=0.33.0
# Shared host tables without host tables (refused while parsing: no oracle case).
vllm serve ../../../conformance/rules/models/deepseek-v41-engram \
  --engram-config '{"dp_shared_memory": true, "cpu_offload": false}'
