"""SL101: a flag the release does not know."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import rename_flag
from ..base import Context, Finding, Rule, version_key
from ._shared import nearest


def _history_note(ctx: Context, string: str) -> str | None:
    """"added in 0.30.0" / "removed in 0.27.0" when another release knows the flag."""
    from ...knowledge import history

    releases = history.releases_with(string)
    if not releases:
        return None
    mine = version_key(ctx.version)
    later = [r for r in releases if version_key(r) > mine]
    earlier = [r for r in releases if version_key(r) < mine]
    if later and not earlier:
        return f"it was added in vLLM {later[0]}"
    if earlier and not later:
        removed = history.removed_in(string)
        last = earlier[-1]
        return f"it was removed in vLLM {removed}" if removed else f"its last release was {last}"
    if earlier and later:
        return f"it exists in vLLM {earlier[-1]} and {later[0]} but not in {ctx.version}"
    return None


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
    Reports an option that no `vllm serve` argument of the file's vLLM release
    accepts (after vLLM's own normalisation: `_` → `-`, unique prefixes), and
    says whether another release has it ("added in 0.30.0", "removed in
    0.27.0") or which flag was probably meant.

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
    Use the suggested spelling (`--max-model-len`), or the release that has the
    flag, or remove it.

    ## Fix safety
    Unsafe: the suggested spelling is a guess at what was meant, and it names a
    different option than the one written; offered, never applied for you.

    ## Evidence
    The flag's name as written and the option table of the release the file
    runs, generated from that release's parser; "added in"/"removed in" come
    from the tables of the other releases servelint knows. A name built from
    a variable the file does not set, a command substitution or a template
    expression (`--max-$X`) is not judged: only the run knows it.

    ## vLLM source
    argparse's `parse_args` via `FlexibleArgumentParser` (vllm/utils/argparse_utils.py);
    the flag tables are generated from each release.
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
            name = base.split("=", 1)[0].split(".", 1)[0]
            name = name[:2] + name[2:].replace("_", "-") if name.startswith("--") else name
            parts = [f"unknown flag {shown} for vLLM {ctx.version}"]
            note = _history_note(ctx, name)
            suggestions = [] if note and "removed" not in note else nearest(name, kn.long_strings)
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
