#!/bin/sh
# servelint: vllm=0.33.0
# ServeSubcommand.cmd: the oracle does not run it
vllm serve ../../../conformance/models/deepseek-v3 --headless -dp 4 -dpl 2 --data-parallel-start-rank 2 --api-server-count 2
# accepted
vllm serve ../../../conformance/models/deepseek-v3 --headless -dp 4 -dpl 2 --data-parallel-start-rank 2 --api-server-count 0
vllm serve ../../../conformance/models/deepseek-v3 --headless -dp 4 -dpl 2 --data-parallel-start-rank 2
