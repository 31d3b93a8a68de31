#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case frontend/per_request_metrics_without_stats.
vllm serve ../../../conformance/models/llama --enable-per-request-metrics --disable-log-stats
