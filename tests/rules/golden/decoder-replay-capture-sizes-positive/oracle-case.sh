#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/decoder_sizes_zero.
vllm serve ../../../conformance/models/llama --compilation-config '{"decoder_replay_cudagraph_capture_sizes": [0, 8]}'
