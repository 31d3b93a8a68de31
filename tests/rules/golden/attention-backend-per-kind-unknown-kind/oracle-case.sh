#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case attention/per_kind_typo_kind.
vllm serve ../../../conformance/models/llama -ac '{"backend_per_kind": {"sliding_windows": "triton_attn"}}'
