#!/bin/sh
# servelint: vllm=0.33.0
# run_headless: the oracle does not run it
vllm serve ../../../conformance/models/deepseek-v3 --headless -dp 4 -dpl 0 --data-parallel-start-rank 0
# accepted
vllm serve ../../../conformance/models/deepseek-v3 --headless -dp 4 -dpl 2 --data-parallel-start-rank 2
