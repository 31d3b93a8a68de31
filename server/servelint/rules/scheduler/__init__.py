"""``SchedulerConfig``: the token budget per step and the sequence counts against their limits.

``SchedulerConfig.verify_max_model_len`` (vllm/config/scheduler.py) refuses a
token budget per step (``--max-num-batched-tokens``) smaller than the model
length when chunked prefill is off, smaller than the number of sequences per
step (``--max-num-seqs``), and a ``--max-num-active-seqs`` above that number.
Unwritten sizes take defaults that depend on the GPU's memory; the rules
judge only what every device class of the declared target agrees on
(``servelint.derive.scheduler.batches``).
"""
