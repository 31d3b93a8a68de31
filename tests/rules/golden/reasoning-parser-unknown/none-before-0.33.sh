#!/usr/bin/env bash
# servelint: vllm=0.32.0
# `none` means unset only from 0.33.0; 0.32.0 looks it up as a name.
vllm serve Qwen/Qwen3-8B --reasoning-parser=none
