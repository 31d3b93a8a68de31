#!/bin/sh
# servelint: vllm=0.33.0
# A BERT embedding model with prefix caching asked for.
vllm serve ../../../conformance/rules/models/bert-embed --runner pooling --enable-prefix-caching
