#!/bin/bash
# Two profiles written side by side.
cat > eager.yaml <<EOF
enforce-eager: false
max-model-len: 8192
EOF

cat > nocache.yaml <<EOF
enable-prefix-caching: false
max-model-len: 8192
EOF

vllm serve meta-llama/Llama-3.2-1B-Instruct --config eager.yaml --port 8000 &
vllm serve meta-llama/Llama-3.2-1B-Instruct --config nocache.yaml --port 8001 &
wait
