"""SL105: a flag the release deprecates."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule


class DeprecatedFlag(Rule):
    """A flag that this vLLM release deprecates.

    ## What it does
    Reports flags whose help or definition in the file's release marks them
    deprecated (for example `--mamba-cache-mode`, which has no effect from
    0.33.0), and `--model` after `vllm serve`, which vLLM moves to the
    positional slot with a warning that it will be removed.

    ## Why
    Deprecated flags are removed in a later release, and then the launch fails
    with `unrecognized arguments`. Some already do nothing.

    ## Example
    ```sh
    vllm serve --model Qwen/Qwen3-8B --mamba-cache-mode align    # vLLM 0.33.0
    ```

    ## Fix
    Follow the deprecation note; give the model as the first positional
    argument: `vllm serve MODEL ...`.

    ## Evidence
    The flag as written and the deprecation the release's own option table
    records for it (its help text or definition, generated per release);
    `--model` only after `vllm serve` (or an image that runs it).
    """

    code = "SL105"
    name = "deprecated-flag"
    category = Category.DEPRECATED
    severity = Severity.WARNING

    def check(self, ctx: Context):
        inv = ctx.invocation
        for flag in inv.flags:
            opt = flag.option
            if opt is None:
                continue
            if (opt.dest == "model" and flag.source == "cli" and inv.launch.entry_unknown is None
                    and inv.launch.entry.value in ("vllm serve", "image entrypoint")):
                yield Finding(
                    flag.name_span,
                    "--model is deprecated with `vllm serve`: give the model as the first positional argument "
                    "(vLLM: \"The `--model` option will be removed in a future version.\")",
                    flag="--model",
                    tags=("deprecated",),
                )
                continue
            note = getattr(opt, "deprecated", None)
            if not note:
                continue
            text = note if isinstance(note, str) else "deprecated"
            yield Finding(
                flag.name_span,
                f"{flag.canonical} is deprecated in vLLM {ctx.version}: {text}",
                flag=flag.canonical,
                path=flag.path,
                tags=("deprecated",),
            )
