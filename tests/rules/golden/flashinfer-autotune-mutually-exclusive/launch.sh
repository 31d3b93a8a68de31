#!/bin/sh
# servelint: vllm=0.33.0
# Autotuning turned on and off.
vllm serve ../../../conformance/models/llama \
  --enable-flashinfer-autotune --kernel-config.enable_flashinfer_autotune false
