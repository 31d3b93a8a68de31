#!/bin/sh
# servelint: vllm=0.33.0
# The second GPU's CPU range written high to low.
vllm serve ../../../conformance/models/llama \
  -tp 2 --numa-bind --numa-bind-cpus 0-3 7-4
