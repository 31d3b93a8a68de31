#!/bin/sh
# servelint: vllm=0.33.0
# Options for a manager class that is not named.
vllm serve ../../../conformance/models/llama \
  --ec-manager-config '{"manager_config": {"capacity": 8}}'
