#!/bin/sh
# servelint: vllm=0.33.0
# A BERT embedding model served with a generative model's flags.
vllm serve ../../../conformance/rules/models/bert-embed --enable-chunked-prefill --max-num-batched-tokens 8192
