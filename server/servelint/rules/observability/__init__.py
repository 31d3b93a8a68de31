"""``ObservabilityConfig``: the metrics and tracing options.

``ObservabilityConfig`` (vllm/config/observability.py) is built in
``EngineArgs.create_engine_config``: its field validators check
``--custom-histogram-buckets`` (booleans first, then each family's name and
bounds), and its model validator wants ``--otlp-traces-endpoint`` beside
``--collect-detailed-traces``.
"""
