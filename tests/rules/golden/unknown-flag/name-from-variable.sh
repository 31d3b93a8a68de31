#!/bin/sh
# servelint: vllm=0.33.0
# A flag whose name comes from a variable the file never sets is only known
# when the script runs: not reported.  A misspelt name with such a value is.
vllm serve Qwen/Qwen3-8B "--max-$LIMIT" 8192 --max-modl-len="$LEN"
