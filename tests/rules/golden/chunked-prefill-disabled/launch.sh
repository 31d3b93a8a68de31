#!/bin/sh
# servelint: vllm=0.33.0
# An old tuning guide's advice.
vllm serve ../../../conformance/models/qwen3 --no-enable-chunked-prefill --max-num-batched-tokens 40960
