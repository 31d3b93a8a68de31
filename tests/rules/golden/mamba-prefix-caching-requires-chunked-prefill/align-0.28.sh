#!/bin/sh
# servelint: vllm=0.28.0
vllm serve ../../../conformance/models/jamba --no-enable-chunked-prefill
