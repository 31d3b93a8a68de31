#!/bin/bash
MODEL=google/gemma-3-1b-it
cat > /tmp/gemma.yaml <<EOF
model: $MODEL
dtype: float16
max-model-len: ${MAX_LEN:-8192}
enable-prefix-caching: false
tensor-parallel-size: $TP
EOF
cat <<'EOF' > lit.yaml
served-model-name: $NAME
EOF
tee ./tabs.yaml <<-EOF
	seed: 1
	EOF
vllm serve --config /tmp/gemma.yaml
vllm serve m --config lit.yaml
vllm serve m --config tabs.yaml
# Not attached: written after the launch, appended to, or written in a branch.
vllm serve m --config later.yaml
cat > later.yaml <<EOF
seed: 2
EOF
cat >> more.yaml <<EOF
seed: 3
EOF
vllm serve m --config more.yaml
if [ -n "$FAST" ]; then
  cat > branch.yaml <<EOF
enforce-eager: true
EOF
fi
vllm serve m --config branch.yaml
