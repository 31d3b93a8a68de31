#!/bin/bash
# Manifests written or fed by heredocs: each holds a launch read at its place.
MODEL=Qwen/Qwen3-8B
cat <<EOF | kubectl apply -f -
apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      args: ["${MODEL}", "--max-model-len", "$LEN", "--port", "8000"]
EOF
kubectl apply -f - <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: quoted
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      args: ["Qwen/Qwen3-8B", "--tensor-parallel-size", "2"]
YAML
if true; then
	cat > compose.yaml <<-EOF
	services:
	  vllm:
	    image: vllm/vllm-openai:v0.33.0
	    command: ["Qwen/Qwen3-8B", "--seed", "\$SEED"]
	EOF
fi
# Not a manifest: a plain text file.
cat > notes.txt <<EOF
kind: of notes
EOF
