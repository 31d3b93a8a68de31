#!/bin/sh
# servelint: vllm=0.33.0
# An encoder-cache connector without a role (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/llama \
  --ec-transfer-config '{"ec_connector": "ECExampleConnector"}'
