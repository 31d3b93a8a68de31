#!/bin/sh
# servelint: vllm=0.33.0
# ServeSubcommand.cmd logs it: the oracle does not run it
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 --enable-expert-parallel --enable-eplb --enable-elastic-ep --api-server-count 4
# not reported: the default count is capped too, but nothing asks for it
vllm serve ../../../conformance/models/deepseek-v3 -dp 4 --enable-expert-parallel --enable-eplb --enable-elastic-ep
