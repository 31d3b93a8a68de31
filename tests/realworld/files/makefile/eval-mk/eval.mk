# Included from the top-level Makefile.
EVAL_MODEL := google/gemma-2-9b
EVAL_PORT := 8100

eval-server:
	@echo "starting $(EVAL_MODEL) on $(EVAL_PORT)"
	nohup vllm serve $(EVAL_MODEL) --port $(EVAL_PORT) --max-model-len 4096 --max-num-seqs 64 > eval-server.log 2>&1 &
	@sleep 60

eval: eval-server
	python -m evals.run --endpoint http://localhost:$(EVAL_PORT)/v1
