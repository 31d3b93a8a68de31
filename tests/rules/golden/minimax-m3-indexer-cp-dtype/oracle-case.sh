#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case attention/minimax_cp_nvfp4_dotted.
vllm serve ../../../conformance/models/llama -ac.minimax_m3_indexer_cp true -ac.indexer_kv_dtype nvfp4
