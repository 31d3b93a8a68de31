#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/bert-embed --runner generate
vllm serve ../../../conformance/rules/models/bert-embed --runner draft
vllm serve ../../../conformance/rules/models/bert-embed --runner pooling
