#!/usr/bin/env bash
# Captures what real `vllm serve` prints when it refuses a launch: the logs
# test_explain.py hands to `servelint explain`.  Not run by CI (it needs the
# vLLM oracle's releases, /work/shared/tools/vllm-oracle, ~30 s a log):
#
#   bash tests/integrations/vllm_logs/capture.sh
#
# Each log is stdout+stderr of `python -m vllm.entrypoints.cli.main serve
# MODEL ARGS` on the oracle's CPU install, with the machine's paths replaced
# (/opt/vllm for the install, /models for the model directories).  The
# launches fail before an engine starts, so nothing is loaded or served.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ORACLE_TOOL="${VLLM_ORACLE_TOOL:-/work/shared/tools/vllm-oracle}"
source "$ORACLE_TOOL/lib/env.sh"
CFG="$(mktemp -d)"
trap 'rm -rf "$CFG"' EXIT

capture() {  # NAME VERSION MODEL ARGS...
  local name="$1" ver="$2" model="$3"
  shift 3
  (
    oracle_env "$ver"
    cd "$CFG"
    timeout 300 "$VPY" -m vllm.entrypoints.cli.main serve "$MODELS_DIR/$model" "$@" >"$CFG/out.log" 2>&1 || true
  )
  sed -e "s#$ORACLE_HOME/releases/$ver#/opt/vllm#g" -e "s#$ORACLE_HOME/venv#/opt/venv#g" \
      -e "s#$ORACLE_HOME#/opt/vllm-home#g" -e "s#$MODELS_DIR#/models#g" -e "s#$CFG#/work#g" \
      -e "s#$(dirname "$(dirname "$(readlink -f "$VPY")")")#/usr/local#g" -e "s#$HOME#/home/user#g" \
      "$CFG/out.log" >"$HERE/$name.log"
  echo "$name: $(wc -l <"$HERE/$name.log") lines, last: $(tail -1 "$HERE/$name.log" | cut -c1-100)"
}

capture unknown-flag-0.33.0 0.33.0 llama --max-modl-len 8192
capture invalid-choice-0.25.0 0.25.0 llama --dtype float17
capture replayssm-llama-0.28.0 0.28.0 llama --use-replayssm
capture tp3-0.33.0 0.33.0 llama -tp 3
capture auto-tool-choice-0.33.0 0.33.0 llama --enable-auto-tool-choice
capture removed-flag-0.27.1 0.27.1 llama --disable-log-requests
capture quantization-0.30.0 0.30.0 llama --quantization xyz
capture structured-outputs-0.33.0 0.33.0 qwen3 --structured-outputs-config '{"backend": "outlines", "disable_any_whitespace": true}'
