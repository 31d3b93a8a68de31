"""SL602: routed-experts output with prefix caching off."""

from __future__ import annotations

from ...derive.cache import prefix_caching
from ._shared import RoutedExpertsRule, checks, report


class RoutedExpertsRequiresPrefixCaching(RoutedExpertsRule):
    """`--enable-return-routed-experts` with prefix caching off.

    ## What it does
    Reports `--enable-return-routed-experts` (or `--aux-output-config`
    `enable_return_routed_experts`) when prefix caching is off: turned off
    with `--no-enable-prefix-caching`, or off by default for the model
    (attention-free and encoder-decoder models).

    ## Why
    vLLM keeps the routed experts of cached prefixes with the prefix cache's
    blocks, and stops while building its config: "AuxOutput Connector
    requires prefix caching."

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-v0.1 --enable-return-routed-experts --no-enable-prefix-caching
    ```

    ## Fix
    Remove `--no-enable-prefix-caching` (or use `--enable-prefix-caching`),
    or drop `--enable-return-routed-experts`.

    ## Evidence
    The prefix-caching flag as written, else the release's default for the
    model (`servelint.derive.cache.prefix_caching`); an unknown model leaves
    the default unknown, and the rule silent.

    ## vLLM source
    `VllmConfig._verify_aux_output_compatibility` (vllm/config/vllm.py).
    """

    code = "SL602"
    name = "routed-experts-requires-prefix-caching"
    vllm_checks = checks("aux_prefix")

    def problems(self, ctx, on):
        pc = prefix_caching(ctx)
        if pc.value is not False:
            return
        if pc.how == "flag" and pc.flags:
            yield report(ctx, pc.flags[-1], "aux_prefix", related_to=self.here(ctx, on))
        else:
            yield report(ctx, on.flags[-1], "aux_prefix", note=pc.why)
