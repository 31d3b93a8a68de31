#!/usr/bin/env bash
# servelint: vllm=0.25.0
# The oracle's trigger case observability/traces_empty_endpoint.
vllm serve ../../../conformance/models/llama --otlp-traces-endpoint '' --collect-detailed-traces worker
