#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --enable-dbo
