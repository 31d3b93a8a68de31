#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case compilation/frames_negative.
vllm serve ../../../conformance/models/llama --compilation-config '{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_frames_per_batch": -4}'
