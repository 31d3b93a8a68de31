#!/bin/sh
# servelint: vllm=0.33.0
# One data-parallel replica has no one to share its tables with.
vllm serve ../../../conformance/rules/models/deepseek-v41-engram \
  --engram-config '{"dp_shared_memory": true}'
