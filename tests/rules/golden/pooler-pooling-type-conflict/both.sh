#!/bin/sh
# servelint: vllm=0.33.0
vllm serve intfloat/e5-mistral-7b-instruct --pooler-config '{"pooling_type": "LAST", "seq_pooling_type": "MEAN"}'
vllm serve BAAI/bge-m3 --pooler-config '{"pooling_type": "CLS", "tok_pooling_type": "ALL"}'
# One of them alone is fine (ALL is a token pooling type).
vllm serve BAAI/bge-m3 --pooler-config '{"pooling_type": "ALL"}'
vllm serve BAAI/bge-m3 --pooler-config '{"seq_pooling_type": "CLS", "tok_pooling_type": "ALL"}'
