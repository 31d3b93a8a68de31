#!/bin/sh
# servelint: vllm=0.33.0
# Flags a release dropped: what became of each is read from the tables.
vllm serve facebook/opt-125m \
  --guided-decoding-backend xgrammar \
  --num-scheduler-steps 8 \
  --override-pooler-config '{"pooling_type": "MEAN"}' \
  --speculative-model facebook/opt-125m
