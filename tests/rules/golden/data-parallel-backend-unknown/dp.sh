#!/bin/sh
# servelint: vllm=0.33.0
# A typo that argparse lets through: vLLM's assertion stops the launch.
vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-size 2 --data-parallel-backend torch
# With an address, ParallelConfig refuses it (the value is case-sensitive).
vllm serve meta-llama/Llama-3.1-8B-Instruct -dpb Ray --data-parallel-address 10.0.0.1
# Fine: the two backends.
vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-backend=ray
vllm serve meta-llama/Llama-3.1-8B-Instruct -dpb mp
# Unknown: a variable the file does not set.
vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-backend "$DP_BACKEND"
