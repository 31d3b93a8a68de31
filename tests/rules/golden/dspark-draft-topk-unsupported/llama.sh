#!/usr/bin/env bash
# servelint: vllm=0.33.0
# Without a model, DSpark loads the served model as a DeepSeek-V4 DSpark draft.
vllm serve ../../../conformance/models/llama \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 7, "dspark_draft_topk": 32}'
