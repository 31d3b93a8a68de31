# A .mk include with the shell-heavy recipes.
-include .env
PYTHON ?= python3
ifeq ($(GPU),a100)
  TP = 4
else
  TP = 1
endif
ifndef PORT
  PORT = 8000
endif
VERSION != git describe

.ONESHELL:
serve-oneshell:
	@set -e
	LEN=4096
	# a shell comment line in the recipe
	$(PYTHON) -m vllm.entrypoints.openai.api_server --model $(MODEL) \
	  --tensor-parallel-size $(TP) --max-model-len $$LEN --port $(PORT)

bench: MODEL = Qwen/Qwen3-0.6B
bench:
	vllm serve $(MODEL) --served-model-name $@ --revision $(VERSION) --download-dir $(shell pwd)/cache
	vllm bench serve --model $(MODEL)
	echo "run: vllm serve $(MODEL)"
