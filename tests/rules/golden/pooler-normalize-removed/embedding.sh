#!/bin/sh
# servelint: vllm=0.33.0
# `normalize` was replaced by `use_activation`: refused while parsing.
vllm serve intfloat/e5-mistral-7b-instruct --pooler-config '{"normalize": true}'
# The dotted form is read the same way.
vllm serve intfloat/e5-mistral-7b-instruct --pooler-config.normalize false
# The new name is fine.
vllm serve intfloat/e5-mistral-7b-instruct --pooler-config '{"use_activation": true}'
