"""``WatermarkConfig`` (``vllm/config/watermarking.py``): the
`--watermark-config` JSON that ``WatermarkConfig.validate_watermark_settings``
refuses or warns about."""
