#!/usr/bin/env bash
# servelint: vllm=0.33.0
# MTP on a model without MTP layers.
vllm serve ../../../conformance/models/llama --spec-method mtp --spec-tokens 1
