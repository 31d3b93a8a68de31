"""``ProfilerConfig``: ``--profiler-config`` options against the profiler they belong to.

``ProfilerConfig._validate_profiler_config`` (vllm/config/profiler.py) runs
while argparse reads ``--profiler-config``: the ``torch_*`` options need
``profiler: torch``, the ``proton_*`` options ``profiler: proton``, each
profiler its output directory, and Proton's output format its data kind.
"""
