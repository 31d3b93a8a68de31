"""SL007: a `--config` file vLLM cannot read, or a launch it leaves without a model."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ...model import Entry
from ..base import Context, Finding, Rule


class ConfigFileProblem(Rule):
    """A `--config` file vLLM cannot read, or a launch it leaves without a model.

    ## What it does
    Reports `--config` given twice, `--config` with no path, a path that is
    not `.yaml`/`.yml`, a file that does not exist next to the launch, a file
    that is not a YAML mapping (empty, a list, a syntax error), and a
    `vllm serve --config FILE` launch whose model is neither the first
    argument nor a `model:` key of the file.

    ## Why
    vLLM asserts `More than one config file specified!`, raises `No config
    file specified!`, `Config file must be of a yaml/yml type`, fails to
    open or read the file, or raises `No model specified!` before parsing
    any flag (vllm/utils/argparse_utils.py, `_pull_args_from_config` and
    `load_config_file`).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --config serve.json
    vllm serve Qwen/Qwen3-8B --config a.yaml --config b.yaml
    ```

    ## Fix
    Give exactly one existing YAML mapping: `--config serve.yaml`, and the
    model first (`vllm serve MODEL --config serve.yaml`) or as `model:` in
    the file.

    ## Evidence
    The `--config` words and, for a shell script, the file they name,
    relative to the script (a missing file is a warning: vLLM opens the path
    from its working directory, which need not be the script's). Paths in
    container forms resolve inside the container and are not looked up; a
    path built from a variable is not judged.
    """

    code = "SL007"
    name = "config-file"
    category = Category.CONFIG
    severity = Severity.ERROR
    reads = frozenset({"config", "*"})  # the first word as written (_model_given)

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
            # vLLM opens the path from its working directory, which need not
            # be the script's: a warning, not an error.
            yield Finding(ref.span, f"config file {ref.text!r} not found (relative to this file)", flag="--config",
                          severity=Severity.WARNING)
        elif inv.config_file and inv.config_launch is None:
            yield Finding(ref.span, f"vLLM cannot load {ref.text!r}: {_unreadable(ctx, inv.config_file)}",
                          flag="--config")
        elif inv.config_launch is not None and not _has_model(inv):
            yield Finding(ref.span, "no model: give it first (vllm serve MODEL --config FILE) or as `model:` in the file",
                          flag="--config",
                          vllm_message="No model specified! Please specify model either as a positional argument "
                          "or in a config file.")


def _unreadable(ctx: Context, path: str) -> str:
    """Why a config file gives no flags (yaml.safe_load fails, or its
    result has no ``.items()``: vLLM then raises while loading it)."""
    from ...parse.vllm_config import parse_vllm_config

    text = ctx.text_of(path)
    problems = parse_vllm_config(path, text).problems if text is not None else []
    return problems[0].message if problems else "it is not a YAML mapping of flag names to values"


def _has_model(inv) -> bool:
    """vLLM's check in ``_pull_args_from_config``: after moving ``--model X``
    to the front, the word after ``serve`` is not a flag, or the file's
    arguments include ``--model``.  Only ``vllm serve`` makes it."""
    launch = inv.launch
    if launch.entry not in (Entry.SERVE, Entry.IMAGE):
        return True
    if launch.args and not launch.args[0].text.startswith("-"):
        return True
    if any(f.source == "cli" and f.written == "--model" and f.values and f.values[0].text for f in inv.flags):
        return True
    return any(w.text == "--model" for w in inv.config_launch.args)
