"""SL106: words vLLM's parser has no place for."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import remove_words, rename_flag
from ...parse.entry import joined_parts
from ..base import Context, Finding, Rule
from ._shared import FALSE_WORDS, TRUE_WORDS


class ExtraArgument(Rule):
    """A word that is neither the model nor a flag's value.

    ## What it does
    Reports positional words after the model: a second model, a value given
    to a flag that takes none (`--enforce-eager true`), a value after a flag
    that already had one, or a positional model next to `--model`.

    ## Why
    vLLM accepts one positional argument (the model) and stops with
    `unrecognized arguments: WORD`.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enforce-eager true
    ```

    ## Fix
    Remove the word, or attach it to the flag it belongs to.

    ## Fix safety
    Removing a stray word is safe: vLLM rejects it, so no launch that starts
    uses it. Replacing a switch's value with its negative form is unsafe: it
    changes what the launch does.

    ## Evidence
    The launch's words as the release's parser reads them: a word is extra
    only when the file shows it exactly (not built from a variable) and
    nothing before it takes a value. Words passed on opaquely (`"$@"`) are
    not judged. A word that holds a flag and its value (`"--dtype half"`) is
    SL014's: it says why vLLM rejects it.
    """

    code = "SL106"
    fixes = frozenset({Applicability.SAFE, Applicability.UNSAFE})
    name = "extra-argument"
    category = Category.PARSE_ERROR
    severity = Severity.ERROR

    def check(self, ctx: Context):
        inv = ctx.invocation
        for w in inv.extra:
            if not w.exact or (not w.role and joined_parts(w.text) is not None):
                continue  # one argument holding several: SL014 says why
            fixes = []
            prev = None
            for f in inv.flags:
                if f.name_span.end <= w.span.start and (f.word is None or f.word.path == w.path):
                    prev = f
            if inv.model_source == "--model" and w is (inv.extra[0] if inv.extra else None) and not any(
                f.name_span.end <= w.span.start for f in inv.flags if f.word is not None and f.word.path == w.path
            ):
                msg = (f"the model is given twice: {w.text!r} here and {inv.model.text!r} with --model; "
                       "vLLM moves --model's value to the front and rejects this one")
            elif prev is not None and prev.option is not None and not prev.option.takes_value:
                msg = f"{prev.written} takes no value, so vLLM rejects {w.text!r} as an extra argument"
                fixes = _boolean_value_fixes(ctx, prev, w)
            else:
                msg = f"unexpected argument {w.text!r}: vLLM takes one model and then flags"
            yield Finding(w.span, msg, path=w.path, vllm_message=f"unrecognized arguments: {w.text}", fixes=fixes)


def _boolean_value_fixes(ctx: Context, flag, word) -> list[Fix]:
    """``--enforce-eager true``: drop the word; ``false``: use the negative flag."""
    value = word.text.strip().lower()
    if word.role == "config-value":
        # A YAML value (`enforce-eager: "true"`) is not a word that can go:
        # removing it leaves a key without a value.
        return []
    removed = remove_words(ctx.text_of, [word], ctx.path)
    if not removed or flag.word is None or flag.word.path != word.path:
        return []
    if value in TRUE_WORDS:
        return [Fix(f"Remove {word.text}", removed, applicability=Applicability.SAFE, preferred=True)]
    if value in FALSE_WORDS and flag.option.negative and not flag.negated:
        neg = flag.option.negative[0]
        return [Fix(f"Replace with {neg}", rename_flag(flag, neg, ctx.path) + removed, applicability=Applicability.UNSAFE, preferred=True)]
    return []
