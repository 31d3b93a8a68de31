"""Transitional: the ReplaySSM family's view of vLLM's state moved to
``servelint.derive``; this module re-exports it until those rules read
``derive`` directly."""

from __future__ import annotations

from ..derive.base import UNKNOWN, Derived, at_least
from ..derive.cache import mamba_cache_mode, replayssm_buffer_len, replayssm_flag
from ..derive.cache import prefix_caching
from ..derive.flags import json_of, last_flag, value_of, written
from ..derive.kv_transfer import kv_connector
from ..derive.mamba import mamba_backend, mamba_backends, stochastic_rounding
from ..derive.model import arch_facts, is_mamba_model, uses_mla
from ..derive.model import max_model_len_guess as max_model_len
from ..derive.parallel import pipeline_parallel_size
from ..derive.runner import V2_ENV, has_triton, use_v2_model_runner, v2_env
from ..derive.speculative import Speculation, speculation

__all__ = [
    "Derived",
    "UNKNOWN",
    "at_least",
    "written",
    "last_flag",
    "value_of",
    "json_of",
    "replayssm_flag",
    "uses_mla",
    "arch_facts",
    "is_mamba_model",
    "prefix_caching",
    "mamba_cache_mode",
    "Speculation",
    "speculation",
    "mamba_backends",
    "mamba_backend",
    "replayssm_buffer_len",
    "pipeline_parallel_size",
    "stochastic_rounding",
    "kv_connector",
    "V2_ENV",
    "has_triton",
    "v2_env",
    "use_v2_model_runner",
    "max_model_len",
]
