#!/bin/sh
# servelint: vllm=0.33.0
# 16 TP ranks over 8 KV heads: each head has 2 replicas, so DCP is at most 2.
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 4
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 2
