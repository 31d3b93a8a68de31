#!/bin/bash
EXTRA_ARGS="--enable-prefix-caching --max-num-seqs 128"
COMMON="--dtype bfloat16"
COMMON="$COMMON --seed 0"
vllm serve Qwen/Qwen3-8B $EXTRA_ARGS $COMMON "$EXTRA_ARGS" $VLLM_EXTRA_ARGS
