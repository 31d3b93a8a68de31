#!/usr/bin/env bash
# servelint: vllm=0.28.0
# In vLLM 0.27.0-0.28.0 prefill context parallelism makes vLLM pick Model Runner V2 outright,
# whose list then refuses it for a model without MLA (the oracle's case vllm_config_c/mrv2_pcp_forced).
vllm serve ../../../conformance/models/qwen3 --prefill-context-parallel-size 2
