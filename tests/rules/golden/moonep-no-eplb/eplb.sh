#!/bin/sh
# servelint: vllm=0.33.0
# MoonEP with EPLB.
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --all2all-backend moonep --enable-eplb
# Another all2all backend takes EPLB: silent.
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --all2all-backend allgather_reducescatter --enable-eplb
# The backend is only known at run time: silent.
vllm serve ../../../conformance/models/mixtral -tp 2 --enable-expert-parallel --all2all-backend "$A2A" --enable-eplb
