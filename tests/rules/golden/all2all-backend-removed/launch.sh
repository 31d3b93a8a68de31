#!/bin/sh
# servelint: vllm=0.33.0
# A backend from an older guide.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --all2all-backend pplx
