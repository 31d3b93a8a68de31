"""SL721: a `VLLM_*` environment variable the release does not know."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...diagnostics import Category, Related, Severity
from ...knowledge.env_vars import known_env_vars
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_message, vllm_source

_HARD = VllmCheck("envs.unknown_hard", "Unknown vLLM environment variable detected: ")
_SOFT = VllmCheck("envs.unknown_warning", "Unknown vLLM environment variable detected: %s")


class UnknownVllmEnvVar(Rule):
    """A `VLLM_*` environment variable the release does not know.

    ## What it does
    Reports each variable starting with `VLLM_` that the launch's
    environment sets and that is not one of the release's environment
    variables (`vllm/envs.py`): a typo, or a variable an older or newer
    release reads. With `--fail-on-environ-validation` it is an error.

    ## Why
    vLLM reads only the variables it knows; any other is ignored, so the
    setting it was meant to change silently keeps its default. vLLM logs
    "Unknown vLLM environment variable detected: VLLM_ALLOW_LONG_MAX_MODEL_LENGTH"
    while building the engine config, or stops with that message under
    `--fail-on-environ-validation`.

    ## Example
    ```sh
    VLLM_ALLOW_LONG_MAX_MODEL_LENGTH=1 vllm serve Qwen/Qwen3-8B --max-model-len 65536
    ```

    ## Fix
    Spell the variable as the release does (the message names a close
    match when there is one), or remove it.

    ## Evidence
    The variables the file sets for the launch (`export`, `VAR=x` before
    the command, a container's `env`), checked against the list generated
    from each release's `vllm/envs.py` (0.25.0-0.33.0; other releases are
    not judged). Variables the environment gets from elsewhere are not seen.
    Where vLLM only logs the warning, a variable is reported only when it is
    close to a known one (a likely misspelling): a file's own `VLLM_VERSION`
    or `VLLM_IMAGE` is not meant for vLLM. With
    `--fail-on-environ-validation` every unknown one is an error, as in vLLM.

    ## vLLM source
    `validate_environ`, in vllm/envs.py up to 0.30.0 and
    `Platform.validate_environ` (vllm/platforms/interface.py) from 0.31.0,
    called by `EngineArgs.create_engine_config`.
    """

    code = "SL721"
    name = "unknown-vllm-env-var"
    category = Category.UNKNOWN_FLAG
    severity = Severity.WARNING
    vllm_checks = (_HARD, _SOFT)
    reviewed = ("0.25.0", "0.33.0")
    reads = frozenset({"*"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        written = [(name, var) for name, var in inv.env.items() if name.startswith("VLLM_") and var.span is not None]
        if not written:
            return  # before the table is read: most launches set no VLLM_ variable
        known = known_env_vars(ctx.version)
        if known is None:
            return
        unknown = [var for name, var in written if name not in known]
        if not unknown:
            return
        hard = switch(inv, "fail_on_environ_validation")
        if hard is None:
            return
        for var in unknown:
            note = _near(var.name, known)
            if not hard and note is None:
                # vLLM only logs it; a CI file's own VLLM_VERSION or VLLM_IMAGE
                # is not meant for vLLM: only a likely misspelling is worth a word.
                continue
            text = f"Unknown vLLM environment variable detected: {var.name}"
            shown = text + (f" (did you mean {note}?)" if note else f" (vLLM {ctx.version} does not read it)")
            related = []
            if hard:
                related = [Related(f.word.path if f.word is not None and f.word.path else ctx.path, f.name_span,
                                   "an error because of {}".format(f.written))
                           for f in value_of(inv, "fail_on_environ_validation").flags]
            key = _HARD.key if hard else _SOFT.key
            yield Finding(var.span, shown, severity=Severity.ERROR if hard else None, related=related,
                          vllm_message=vllm_message(ctx, _HARD.key, var.name) if hard else None,
                          data={"vllm_source": vllm_source(ctx, key)})


def _near(name: str, known: frozenset[str]) -> str | None:
    """The known variable ``name`` is most likely a misspelling of."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.85)
    return close[0] if close else None
