"""SL105: a flag the release deprecates."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule


class DeprecatedFlag(Rule):
    """A flag that this vLLM release deprecates, and `--model` where `vllm
    serve` does not take it.

    ## What it does
    Reports flags whose help or definition in the file's release marks them
    deprecated (for example `--mamba-cache-mode`, which has no effect from
    0.33.0), and `--model` after `vllm serve`: releases that move it to the
    positional slot warn that it will be removed (a warning here); older
    releases reject it (an error here, with vLLM's own message: 0.6.x
    raises in `vllm serve` itself, 0.7-0.10 while parsing).  What each
    release does was observed by running its own parser (the release's
    `facts.model_flag`).  `--model` is the way to name the model with
    `python -m vllm.entrypoints.openai.api_server`, and with an image that
    runs that module (`vllm/vllm-openai` before it ran `vllm serve`): never
    reported there.

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
    records for it (its help text or definition, generated per release).
    `--model`: the launch's release and entry point (`vllm serve`, or an
    upstream image whose entry point at that release is `vllm serve`); an
    image whose entry point is not known (not an upstream vLLM image, an
    image in a variable) says nothing about it.
    """

    code = "SL105"
    name = "deprecated-flag"
    category = Category.DEPRECATED
    severity = Severity.WARNING

    def check(self, ctx: Context):
        inv = ctx.invocation
        entry = getattr(inv, "entry", "serve")
        known = getattr(inv, "entry_known", True)
        for flag in inv.flags:
            opt = flag.option
            if opt is None:
                continue
            if opt.dest == "model" and flag.source == "cli":
                if entry == "serve" and known:
                    yield from self._model_flag(ctx, flag)
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

    def _model_flag(self, ctx: Context, flag):
        facts = (ctx.knowledge.facts or {}).get("model_flag") or {"outcome": "moved"}
        said = facts.get("message")
        if facts.get("outcome") == "rejected":
            where = "`vllm serve` itself" if facts.get("stage") == "serve" else "its parser"
            yield Finding(
                flag.name_span,
                f"vLLM {ctx.version} rejects --model after `vllm serve` ({where} raises): give the model as "
                f"the first positional argument" + (f" (vLLM: \"{said}\")" if said else ""),
                flag="--model",
                severity=Severity.ERROR,
                vllm_message=said,
            )
        elif facts.get("outcome") == "moved":
            yield Finding(
                flag.name_span,
                "--model is deprecated with `vllm serve`: give the model as the first positional argument"
                + (f" (vLLM: \"{said}\")" if said else ""),
                flag="--model",
                tags=("deprecated",),
            )
