"""The same option given more than once."""

from __future__ import annotations

from ..diagnostics import Fix, Related, Severity
from ..fixes.edits import remove_flag
from .base import Context, Finding, Rule


def _value_key(flag) -> tuple:
    if flag.option is not None and flag.option.kind in ("bool", "store_true"):
        return (not flag.negated,)
    return tuple(w.text for w in flag.values)


class DuplicateFlag(Rule):
    """An option given twice: vLLM keeps the last one.

    ## What it does
    Reports an option set more than once on the command line (in any
    spelling: `--max-model-len` and `--max_model_len`, `-tp` and
    `--tensor-parallel-size`, `--enable-x` and `--no-enable-x`), anchored on
    the later one, which wins.

    ## Why
    argparse keeps the last value and vLLM only logs `Found duplicate keys`
    (vllm/utils/argparse_utils.py). A launch edited over time often carries an
    old value higher up that looks authoritative but is silently overridden.
    A value from a `--config` file overridden on the command line is the
    documented precedence and is not reported.

    ## Fix
    Remove the earlier occurrence (safe: the later one already wins).
    """

    code = "SL104"
    name = "duplicate-flag"
    category = "duplicate-flag"
    severity = Severity.WARNING

    def check(self, ctx: Context):
        inv = ctx.invocation
        seen: dict[str, object] = {}
        for flag in inv.flags:
            if flag.option is None or flag.dotted_key is not None or flag.option.dest == "config":
                continue
            if flag.option.kind == "append" or flag.option.nargs == "*":
                continue
            dest = flag.option.dest
            first = seen.get(dest)
            seen[dest] = flag
            if first is None or first.source != flag.source:
                continue
            same = _value_key(first) == _value_key(flag)
            what = "again with the same value" if same else "again; vLLM keeps this last value"
            earlier = first.written + ("" if not first.values else " " + " ".join(w.text for w in first.values))
            path = first.word.path if first.word is not None and first.word.path else ctx.path
            yield Finding(
                flag.name_span,
                f"{flag.canonical} is given {what} (earlier: {earlier})",
                flag=flag.canonical,
                path=flag.path,
                severity=Severity.INFORMATION if same else None,
                related=[Related(path, first.name_span, f"{first.written} first given here")],
                fixes=[Fix(f"Remove the earlier {first.written}", remove_flag(ctx.text_of(path), first, ctx.path), safe=True, preferred=True)]
                if ctx.text_of(path) is not None else [],
                tags=("unnecessary",) if same else (),
            )
