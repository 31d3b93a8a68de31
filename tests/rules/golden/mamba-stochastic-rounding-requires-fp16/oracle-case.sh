#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/stochastic_rounding_nemotronh.
vllm serve ../../../conformance/models/nemotronh --enable-mamba-cache-stochastic-rounding
