#!/bin/sh
# servelint: vllm=0.33.0
# A reranker with affine score calibration: a zero sigma divides by zero.
vllm serve BAAI/bge-reranker-base --pooler-config '{"logit_mean": 0.5, "logit_sigma": 0}'
# The dotted form is read the same way.
vllm serve BAAI/bge-reranker-base --pooler-config.logit_sigma 0.0
# A non-zero sigma is fine.
vllm serve BAAI/bge-reranker-base --pooler-config '{"logit_mean": 0.5, "logit_sigma": 2.0}'
