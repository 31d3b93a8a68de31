#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/nemotronh --enable-prefix-caching --disable-chunked-mm-input
# Prefix caching off: the Mamba cache mode is none, silent.
vllm serve ../../../conformance/models/nemotronh --no-enable-prefix-caching --disable-chunked-mm-input
# Not a Mamba model: silent.
vllm serve ../../../conformance/models/llama --enable-prefix-caching --disable-chunked-mm-input
