#!/bin/sh
# servelint: vllm=0.33.0
# ServeSubcommand.cmd: the oracle does not run it
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 -dpl 1 --data-parallel-rank 2 --data-parallel-start-rank 2
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 -dpl 1 --data-parallel-rank 3 --data-parallel-hybrid-lb
# accepted
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 -dpl 2 --data-parallel-start-rank 2
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 -dpl 2 --data-parallel-start-rank 2 --data-parallel-hybrid-lb
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 --data-parallel-rank 2
