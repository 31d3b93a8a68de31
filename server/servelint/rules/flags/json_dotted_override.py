"""SL107: a whole JSON value lost to dotted keys."""

from __future__ import annotations

from ...diagnostics import Category, Related, Severity
from ..base import Context, Finding, Rule


class JsonDottedOverride(Rule):
    """A JSON flag given whole and as dotted keys: the whole value is lost.

    ## What it does
    Reports `--compilation-config '{"mode": 3}'` used together with
    `--compilation-config.cudagraph_mode NONE` (or `-cc.x`, YAML keys).

    ## Why
    vLLM collects every dotted key into one JSON object and appends it at the
    end of argv (vllm/utils/argparse_utils.py, `parse_args`), so it replaces
    the whole JSON value instead of merging with it: `mode` is silently lost.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"mode": 3}' --compilation-config.cudagraph_mode NONE
    ```

    ## Fix
    Use one form: move the whole value's keys into dotted keys, or the dotted
    keys into the JSON.

    ## Evidence
    The flags as written: one option given both as a whole value and as
    dotted keys (on the command line or as keys of a `--config` file),
    resolved to their option by the release's parser.
    """

    code = "SL107"
    name = "json-dotted-override"
    category = Category.CONFIG
    severity = Severity.WARNING

    def check(self, ctx: Context):
        inv = ctx.invocation
        by_dest: dict[str, list] = {}
        for f in inv.flags:
            if f.option is not None:
                by_dest.setdefault(f.option.dest, []).append(f)
        for dest, flags in by_dest.items():
            dotted = [f for f in flags if f.dotted_key is not None]
            whole = [f for f in flags if f.dotted_key is None and f.values]
            if not dotted or not whole:
                continue
            for f in whole:
                yield Finding(
                    f.value_span or f.name_span,
                    f"this {f.canonical} value is discarded: the dotted keys ({', '.join(d.written for d in dotted)}) "
                    "replace it as a whole",
                    flag=f.canonical,
                    path=f.path,
                    related=[Related(d.word.path or ctx.path if d.word else ctx.path, d.name_span, "dotted key given here") for d in dotted],
                )
