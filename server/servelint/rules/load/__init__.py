"""``LoadConfig`` (vllm/config/load.py) and the model loader that reads it
(vllm/model_executor/model_loader/__init__.py): `--load-format` names a
loader the release registers."""
