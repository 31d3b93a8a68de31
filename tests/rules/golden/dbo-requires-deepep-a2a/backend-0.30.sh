#!/bin/sh
# servelint: vllm=0.30.0
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --ubatch-size 2 --all2all-backend allgather_reducescatter
