#!/bin/sh
# servelint: vllm=0.33.0
# MoonEP with --quantization fp8.
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --all2all-backend moonep --quantization fp8
# Unquantized: silent.
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --all2all-backend moonep
