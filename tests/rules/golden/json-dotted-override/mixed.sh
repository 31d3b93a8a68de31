#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B -cc '{"mode": 3}' --compilation-config.cudagraph_mode NONE
