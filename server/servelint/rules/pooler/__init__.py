"""``PoolerConfig`` (vllm/config/pooler.py): the checks of `--pooler-config`
that pydantic runs when argparse converts the flag (the removed parameters,
`logit_sigma`, and `pooling_type` against its two specific forms)."""
