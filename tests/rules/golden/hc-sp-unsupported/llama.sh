#!/bin/sh
# servelint: vllm=0.33.0
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --enable-hc-sp
# With one TP rank the flag is ignored.
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-hc-sp
