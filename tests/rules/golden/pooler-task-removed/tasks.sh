#!/bin/sh
# servelint: vllm=0.33.0
# `score` became `classify`; `encode` was split into token_embed / token_classify.
vllm serve BAAI/bge-reranker-base --pooler-config '{"task": "score"}'
vllm serve BAAI/bge-m3 --pooler-config.task encode
# The current names are fine.
vllm serve BAAI/bge-reranker-base --pooler-config '{"task": "classify"}'
