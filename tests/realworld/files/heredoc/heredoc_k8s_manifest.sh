#!/bin/bash
# Render the manifest for the current account and apply it.
ACCOUNT_ID=$(aws sts get-caller-identity --query Account --output text)
cat <<EOF > vllm-cpu.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-cpu
spec:
  replicas: 1
  selector:
    matchLabels: {app: vllm-cpu}
  template:
    metadata:
      labels: {app: vllm-cpu}
    spec:
      containers:
        - name: vllm
          image: ${ACCOUNT_ID}.dkr.ecr.us-east-1.amazonaws.com/vllm-cpu:0.33.0
          command: ["/bin/sh", "-c"]
          args: ["vllm serve meta-llama/Llama-3.2-1B-Instruct --max_num_batched_tokens 2048 --max_model_len 2048"]
EOF
kubectl apply -f vllm-cpu.yaml
