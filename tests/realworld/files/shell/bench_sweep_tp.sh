#!/usr/bin/env bash
# Throughput sweep: start one server per tensor-parallel size, hit it with
# the benchmark client, then tear it down again.
#
# Required environment: PORT (the port the server and the client agree on).
set -euo pipefail

: "${PORT:?PORT must be set, e.g. PORT=8123}"
MODEL=meta-llama/Llama-3.2-1B-Instruct
RESULTS_DIR=${RESULTS_DIR:-./results}
mkdir -p "$RESULTS_DIR"

for TP in 1 2 4; do
  echo "=== tp=$TP ==="
  vllm serve "$MODEL" \
    --tensor-parallel-size "$TP" \
    --port "$PORT" \
    --max-model-len 8192 \
    --gpu-memory-utilization 0.90 \
    --disable-log-stats &
  SERVER_PID=$!

  until curl -sf "http://localhost:${PORT}/health" > /dev/null; do sleep 5; done

  vllm bench serve \
    --model "$MODEL" \
    --port "$PORT" \
    --dataset-name random \
    --random-input-len 1024 \
    --random-output-len 128 \
    --num-prompts 500 \
    --result-dir "$RESULTS_DIR" \
    --result-filename "tp${TP}.json" \
    --save-result

  kill "$SERVER_PID"
  wait "$SERVER_PID" || true
done
