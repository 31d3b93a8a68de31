"""SL600: a feature only Model Runner V2 has, under Model Runner V1."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, written
from ...derive.runner import V2_ENV, v2_env
from ..base import Context, Finding
from ._shared import VllmConfigRule, checks, env_related, report, routed_experts, switched_on, v2_off, v2_related

# In-tree platforms whose model runners are vLLM's own (AuxOutput is wired
# to Model Runner V2 only); TPU and out-of-tree platforms check it themselves.
_IN_TREE = ("cuda", "rocm", "cpu", "xpu")


class FeatureRequiresModelRunnerV2(VllmConfigRule):
    """HiSparse, routed-experts output, sampling distribution replay or trace replay under Model Runner V1.

    ## What it does
    Works out which Model Runner vLLM picks (`VLLM_USE_V2_MODEL_RUNNER` from
    the launch's environment; else the default on the declared target: V2
    on CUDA unless a feature V2 lacks applies, V1 without Triton) and
    reports, under V1:

    * a HiSparse attention config (`--attention-config` with
      `hisparse_config`) with `VLLM_USE_V2_MODEL_RUNNER=0`;
    * `--enable-return-routed-experts` (or `--aux-output-config`
      `enable_return_routed_experts`), on an in-tree platform;
    * `--return-sampling-mask` (sampling distribution replay);
    * `--enable-trace-replay`.

    ## Why
    These features exist only in Model Runner V2; vLLM stops while building
    its config ("HiSparse requires Model Runner V2; remove
    VLLM_USE_V2_MODEL_RUNNER=0.", "AuxOutput Connector requires Model Runner
    V2; set VLLM_USE_V2_MODEL_RUNNER=1.", "sampling distribution replay
    requires Model Runner V2", "trace replay requires Model Runner V2").

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B --enable-trace-replay
    ```

    ## Fix
    Unset `VLLM_USE_V2_MODEL_RUNNER` (or set it to 1), or drop the feature
    flag; when V1 is the default because of another feature V2 lacks (a
    speculative method, DBO), drop that feature.

    ## Evidence
    The feature flags as written and the environment the file gives the
    launch; the runner vLLM picks by default on the declared target
    (`servelint.derive.runner`). A variable set to something only known at
    run time, or a flag of the features V2 lacks that servelint does not
    evaluate, make the runner unknown, and the rule silent.

    ## vLLM source
    `VllmConfig.use_v2_model_runner`, `_verify_aux_output_compatibility`,
    `_verify_sampling_replay_config`, `_verify_trace_replay_config`
    (vllm/config/vllm.py).
    """

    code = "SL600"
    name = "feature-requires-model-runner-v2"
    vllm_checks = checks("hisparse_v2", "aux_v2", "sampling_v2", "trace_v2")
    requires = ("--attention-config", "--enable-return-routed-experts", "--aux-output-config",
                "--return-sampling-mask", "--enable-trace-replay")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if written(inv, "attention_config"):
            cfg = json_of(inv, "attention_config")
            env = v2_env(inv)
            if cfg.known and cfg.value.get("hisparse_config") is not None and env.how == "env" and env.value is False:
                found = report(ctx, cfg.flags[-1], "hisparse_v2", related_to=env_related(ctx, V2_ENV))
                if found is not None:
                    yield found
                return  # HiSparse forces V2 otherwise: the checks below never fail
        for dest, name in (("return_sampling_mask", "sampling_v2"), ("enable_trace_replay", "trace_v2")):
            on = switched_on(ctx, dest)
            if on.value:
                v2 = v2_off(ctx)
                if v2 is not None:
                    found = report(ctx, on.flags[-1], name, note=v2.why if v2.how != "env" else "",
                                   related_to=v2_related(ctx, v2))
                    if found is not None:
                        yield found
        aux = routed_experts(ctx)
        if aux.value and ctx.target in _IN_TREE:
            v2 = v2_off(ctx)
            if v2 is not None:
                found = report(ctx, aux.flags[-1], "aux_v2", note=v2.why if v2.how != "env" else "",
                               related_to=v2_related(ctx, v2))
                if found is not None:
                    yield found
