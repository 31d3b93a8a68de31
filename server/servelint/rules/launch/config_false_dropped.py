"""SL003: a `false` in a `--config` file that `vllm serve` drops."""

from __future__ import annotations

from typing import Iterable

from ...argv import primary_string, resolve_option
from ...derive.base import UNKNOWN, Derived
from ...derive.cache import prefix_caching
from ...derive.scheduler import chunked_prefill
from ...diagnostics import Category, Severity
from ...model import Entry
from ...parse import problems
from ..base import Context, Finding, Rule

# Options whose parser default is None and which vLLM resolves per model:
# the derive function that says what the launch ends up with.
_RESOLVED = {
    "enable_prefix_caching": prefix_caching,
    "enable_chunked_prefill": chunked_prefill,
}


class ConfigFalseDropped(Rule):
    """A `false` value in a `--config` YAML file that `vllm serve` drops, where that changes something.

    ## What it does
    Reports `key: false` in a vLLM `--config` file when the value the
    launch ends up with differs from the `false` that was written: the
    option's default for this launch is on (`enable-prefix-caching: false`
    for a model with prefix caching on by default). A `false` equal to the
    default (`enforce-eager: false`) changes nothing and is not reported; one
    whose default servelint cannot tell is reported as information.

    ## Why
    `load_config_file` turns `false` into `--no-KEY` only when that string is
    an option of the parser loading the file. Under `vllm serve` that is the
    top-level `vllm` parser, which has none of the serve options, so every
    `false` is silently dropped (vllm/utils/argparse_utils.py,
    `load_config_file`; verified on 0.25.0–0.33.0). `enable-prefix-caching:
    false` leaves prefix caching at its default, which is *on* for most
    models.

    A file that a launch of `python -m vllm.entrypoints.openai.api_server`
    names is not reported: that entry point loads it with the parser of
    its own options, where `false` becomes `--no-KEY`
    (vllm/entrypoints/launchers/api_server/entry.py 0.33.0:218-222).

    ## Example
    ```yaml
    model: Qwen/Qwen3-8B
    enable-prefix-caching: false
    ```

    ## Fix
    Use the negative flag set to `true`: `no-enable-prefix-caching: true`
    (every release) or `disable-prefix-caching: true` (where the release has
    that spelling).

    ## Evidence
    The `--config` file's `key: false`; the option's default in the release
    the file runs under, and for options vLLM resolves per model
    (`enable-prefix-caching`, `enable-chunked-prefill`) the model's
    architecture. Without them the finding is information, not a warning.
    """

    code = "SL003"
    name = "config-false-dropped"
    category = Category.CONFIG
    severity = Severity.WARNING
    # Reads the launch's parse problems, the options named there and the model.
    reads = frozenset({"*", "problems"})
    judges = frozenset({problems.CONFIG_FALSE_DROPPED})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.launched_by is Entry.API_SERVER:
            return  # the api_server module loads the file with its own parser, which keeps `false`
        inv = ctx.invocation
        kn = ctx.knowledge
        for p in inv.launch.problems:
            if p.code != problems.CONFIG_FALSE_DROPPED:
                continue
            key, written = p.data["key"], p.data.get("written", "false")
            # argparse's spelling of the key: "_" becomes "-" up to the first dot.
            head, dot, tail = key.partition(".")
            opt, string, _ = resolve_option(kn, "--" + head.replace("_", "-") + dot + tail)
            said = f"vLLM drops `false` values in --config files under `vllm serve`, so `{key}: {written}` has no effect"
            if opt is None:
                yield Finding(p.span, f"{said} (and `{key}` is not an option of vLLM {ctx.version})",
                              severity=Severity.INFORMATION)
                continue
            if opt.kind not in ("bool", "store_true"):
                yield Finding(p.span, f"{said}: {_primary(opt)} is not a switch and keeps its default",
                              flag=_primary(opt), severity=Severity.INFORMATION)
                continue
            wanted = string in opt.negative  # `no-x: false` asks for x on
            ends_up = _effective_default(ctx, opt)
            use = _alternatives(kn, opt, string)
            if ends_up.known and bool(ends_up.value) == wanted:
                continue  # the default is what was written: nothing is lost
            if not ends_up.known:
                yield Finding(p.span, f"{said}; servelint cannot tell {opt.dest}'s default for this launch, "
                              f"so it may differ from `{written}`; to be sure, use {use}",
                              flag=_primary(opt), severity=Severity.INFORMATION)
                continue
            state = "on" if ends_up.value else "off"
            why = f" ({ends_up.why})" if ends_up.why else f" (the default in vLLM {ctx.version})"
            yield Finding(p.span, f"{said}: {_primary(opt)} stays {state}{why}; use {use}", flag=_primary(opt))


def _primary(opt) -> str:
    return primary_string(opt)


def _effective_default(ctx: Context, opt) -> Derived:
    """What the option is when nothing sets it, for this launch."""
    resolve = _RESOLVED.get(opt.dest)
    if resolve is not None:
        value = resolve(ctx)
        return value if value.how != "flag" else UNKNOWN
    if opt.default is None or isinstance(opt.default, bool):
        return Derived(bool(opt.default), "default")
    return UNKNOWN


def _alternatives(kn, opt, string: str | None) -> str:
    """The spellings that say the same as the dropped `false`, in YAML."""
    if string in opt.negative:
        positive = [s for s in opt.strings if s not in opt.negative]
        return " or ".join(f"`{s[2:]}: true`" for s in positive[:1]) or "the positive flag set to `true`"
    spellings = [s for s in opt.negative if s.startswith("--no-")] + [s for s in opt.negative if s.startswith("--disable-")]
    if not spellings:
        return "a command-line flag (this option has no negative spelling)"
    return " or ".join(f"`{s[2:]}: true`" for s in spellings)
