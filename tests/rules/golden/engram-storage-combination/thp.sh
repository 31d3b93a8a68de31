#!/bin/sh
# servelint: vllm=0.33.0
# Private tables on huge pages cannot be shared ones.
vllm serve ../../../conformance/rules/models/deepseek-v41-engram \
  --engram-config.use_thp true --engram-config.dp_shared_memory true
