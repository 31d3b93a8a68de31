"""--config files that vLLM cannot use."""

from __future__ import annotations

from ..diagnostics import Severity
from .base import Context, Finding, Rule


class ConfigFileProblem(Rule):
    """A `--config` file vLLM cannot read.

    ## What it does
    Reports `--config` given twice, `--config` with no path, a path that is
    not `.yaml`/`.yml`, and a file that does not exist next to the launch.

    ## Why
    vLLM asserts `More than one config file specified!`, raises `No config
    file specified!`, `Config file must be of a yaml/yml type`, or fails to
    open the file (vllm/utils/argparse_utils.py, `_pull_args_from_config` and
    `load_config_file`).

    ## Fix
    Give exactly one existing YAML file: `--config serve.yaml`.
    """

    code = "SL007"
    name = "config-file"
    category = "config"
    severity = Severity.ERROR
    reads = frozenset({"config"})

    def check(self, ctx: Context):
        inv = ctx.invocation
        configs = [f for f in inv.flags if f.option is not None and f.option.dest == "config" and not f.explicit]
        if len(configs) > 1:
            for f in configs[1:]:
                yield Finding(f.name_span, "more than one --config: vLLM accepts one config file",
                              flag="--config", vllm_message="More than one config file specified!")
        for f in configs:
            if f.missing_value:
                yield Finding(f.name_span, "--config needs a YAML file path after it", flag="--config",
                              vllm_message="No config file specified! Please check your command-line arguments.")
        state = getattr(inv, "config_state", "")
        ref = inv.config_path
        if ref is None or not ref.exact:
            return
        if state == "not-yaml":
            ext = ref.text.rsplit(".", 1)[-1] if "." in ref.text else ref.text
            yield Finding(ref.span, f"--config must name a .yaml or .yml file (got {ref.text!r})", flag="--config",
                          vllm_message=f"Config file must be of a yaml/yml type. {ext} supplied")
        elif state == "missing" and inv.launch.form.value == "shell":
            # Paths in container forms resolve inside the container, where
            # servelint cannot look; only a script's own paths are checked.
            yield Finding(ref.span, f"config file {ref.text!r} not found (relative to this file)", flag="--config",
                          severity=Severity.WARNING)
