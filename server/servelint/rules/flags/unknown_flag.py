"""SL101: a flag the release does not know."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import rename_flag
from ..base import Context, Finding, Rule, version_key
from ._shared import nearest


def _history_note(ctx: Context, string: str) -> tuple[str | None, str | None]:
    """(what another release says of the flag, what to write instead in this
    release, if anything): "it was added in vLLM 0.30.0", "it was removed in
    vLLM 0.27.0", "it was renamed to --x in vLLM 0.11.0" (write --x), "it
    moved into --structured-outputs-config (key backend) in vLLM 0.12.0"
    (write --structured-outputs-config.backend), "it was removed in vLLM
    0.12.0; its deprecation note said to use --pooler-config"."""
    from ...knowledge import history

    entry = getattr(ctx.invocation, "entry", "serve")
    releases = history.releases_with(string, entry)
    if not releases:
        return None, None
    mine = version_key(ctx.version)
    later = [r for r in releases if version_key(r) > mine]
    earlier = [r for r in releases if version_key(r) < mine]
    if later and not earlier:
        return f"it was added in vLLM {later[0]}", None
    if earlier and not later:
        change = history.change(string) if entry == "serve" else None
        if change and version_key(change["release"]) <= mine:
            when = change["release"]
            if change["kind"] == "renamed":
                target = change["to"]
                now = target if target in ctx.knowledge.by_string else None
                return f"it was renamed to {target} in vLLM {when}", now
            if change["kind"] == "moved":
                # Written as a dotted key where this release reads them
                # (--structured-outputs-config.backend xgrammar).
                dotted = None
                if change["into"] in ctx.knowledge.by_string and (ctx.knowledge.facts or {}).get("dotted_keys"):
                    dotted = f"{change['into']}.{change['key']}"
                return f"it moved into {change['into']} (key {change['key']}) in vLLM {when}", dotted
            if change["kind"] == "replaced":
                target = change["to"]
                now = target if target in ctx.knowledge.by_string else None
                return f"it was removed in vLLM {when}; its deprecation note said to use {target}", now
            return f"it was removed in vLLM {when}", None
        removed = history.removed_in(string, entry)
        return (f"it was removed in vLLM {removed}" if removed else f"its last release was {earlier[-1]}"), None
    if earlier and later:
        return f"it exists in vLLM {earlier[-1]} and {later[0]} but not in {ctx.version}", None
    return None, None


# What an expansion the file leaves unresolved looks like in a word's text
# (a shell variable or command substitution, a Kubernetes $(VAR), a template).
_UNRESOLVED = ("$", "`", "{{")


def _name_unknown(flag) -> bool:
    """Whether the flag's name holds an expansion the file does not resolve
    (``--max-$X``): the word is inexact and its name part still shows it."""
    word = flag.word
    return word is not None and not word.exact and any(m in flag.written for m in _UNRESOLVED)


class UnknownFlag(Rule):
    """A flag this vLLM release does not accept.

    ## What it does
    Reports an option that no argument of the file's vLLM release accepts,
    for the entry point the launch runs (`vllm serve`, or `python -m
    vllm.entrypoints.openai.api_server`, or what the container image runs
    at that release), after vLLM's own normalisation (`_` → `-`, unique
    prefixes).  It says what another release makes of it: "added in 0.30.0"
    for a flag the pinned release lacks; "removed in 0.27.0", "renamed to
    --x in 0.11.0" or "moved into --structured-outputs-config (key backend)"
    for one a known release dropped (read from the releases' tables, not
    typed).  It offers "did you mean" only for a real near miss: a typo, a
    word cut short or left out, words reordered.

    ## Why
    vLLM stops with `unrecognized arguments: --flag` (argparse, exit 2) only
    after the image is pulled and the process starts. Flags that exist in one
    release and not another are the most common cause (`--swap-space`,
    `--task`, `--max-seq-len-to-capture`...).

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-length 8192
    ```

    ## Fix
    Use the suggested spelling (`--max-model-len`) or the flag it was renamed
    to, or the release that has the flag, or remove it.

    ## Fix safety
    Unsafe: the suggested spelling is a guess at what was meant, and it names a
    different option than the one written; offered, never applied for you.

    ## Evidence
    The flag's name as written and the option table of the release the file
    runs (pinned in or beside the file, else the newest), for the entry
    point the launch runs, generated from that release's parser; "added
    in"/"removed in"/"renamed"/"moved" come from the tables of the other
    releases servelint knows. A name built from
    a variable the file does not set, a command substitution or a template
    expression (`--max-$X`) is not judged: only the run knows it.

    ## vLLM source
    argparse's `parse_args` via `FlexibleArgumentParser` (vllm/utils/argparse_utils.py,
    vllm/utils.py before it); the flag tables are generated from each release.
    """

    code = "SL101"
    fixes = frozenset({Applicability.UNSAFE})
    name = "unknown-flag"
    category = Category.UNKNOWN_FLAG
    severity = Severity.ERROR
    reads = frozenset({"*"})

    def check(self, ctx: Context):
        kn = ctx.knowledge
        for flag in ctx.invocation.flags:
            if flag.option is not None or flag.candidates:
                continue
            if _name_unknown(flag):
                continue  # the name is only known when the file runs: nothing to judge
            if flag.spelling == "opt-level":
                yield Finding(flag.name_span, "-O needs a level attached (-O3) or one of 0-3 after it", flag=flag.written,
                              path=flag.path, vllm_message=f"unrecognized arguments: {flag.written}")
                continue
            written = flag.written
            shown = written if flag.source == "cli" else f"{written} (--{written})"
            base = written if written.startswith("-") else "--" + written
            name = base.split("=", 1)[0]
            if (kn.facts or {}).get("dotted_keys") is not False or not name.startswith("--"):
                name = name.split(".", 1)[0]
            name = name[:2] + name[2:].replace("_", "-") if name.startswith("--") else name
            parts = [f"unknown flag {shown} for vLLM {ctx.version}"]
            if "." in name and name.startswith("--"):
                head = name.split(".", 1)[0]
                if head in kn.by_string:
                    parts.append(f"this release does not read dotted keys (give {head} a JSON object)")
            note, renamed = _history_note(ctx, name.split(".", 1)[0])
            if renamed:
                suggestions = [renamed]
            elif note and "removed" not in note and "moved" not in note:
                suggestions = []
            else:
                suggestions = nearest(name, kn.option_strings)
            if note:
                parts.append(note)
            if name == "--task" and "--runner" in kn.by_string:
                parts.append("for embedding, reranking or reward models use --runner pooling (with --convert to adapt a generative model)")
            if suggestions:
                parts.append("did you mean " + " or ".join(suggestions) + "?")
            fixes = [
                Fix(f"Replace with {s}", rename_flag(flag, s, ctx.path), applicability=Applicability.UNSAFE, preferred=(i == 0))
                for i, s in enumerate(suggestions[:2])
            ]
            yield Finding(
                flag.name_span,
                "; ".join(parts),
                flag=name,
                path=flag.path,
                fixes=fixes,
                vllm_message=f"unrecognized arguments: {name}",
                data={"suggestions": suggestions},
            )
