#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/ec_producer_text_model.
vllm serve ../../../conformance/models/llama --ec-transfer-config '{"ec_connector": "ECExampleConnector", "ec_role": "ec_producer"}'
