#!/bin/sh
# servelint: vllm=0.33.0
# A CPU list with spaces, which numactl syntax does not allow.
vllm serve ../../../conformance/models/llama \
  -tp 2 --numa-bind --numa-bind-cpus 0-3 '4 - 7'
