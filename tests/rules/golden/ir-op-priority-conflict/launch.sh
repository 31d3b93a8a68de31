#!/bin/sh
# servelint: vllm=0.33.0
# One op's priority in two places.
vllm serve ../../../conformance/models/llama \
  --ir-op-priority.rms_norm native --kernel-config.ir_op_priority.rms_norm native
