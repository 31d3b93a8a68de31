#!/bin/bash
cat > run.sh <<EOF
vllm serve Qwen/Qwen3-8B --port 8000
EOF
cat <<'YAML' > config.yaml
model: Qwen/Qwen3-8B
# vllm serve is run by the job
YAML
vllm serve --config config.yaml
