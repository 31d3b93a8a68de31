#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/nemotronh --no-enable-chunked-prefill
