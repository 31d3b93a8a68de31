"""``--use-replayssm``: the checks of ``VllmConfig.validate_mamba_cached_kernel``, one rule per aspect, and Model Runner V2's Triton check."""
