"""SL104: the same option given more than once."""

from __future__ import annotations

from ...diagnostics import Applicability, Category, Fix, Related, Severity
from ...edits import remove_flag
from ..base import Context, Finding, Rule


def _value_key(flag) -> tuple:
    if flag.option is not None and flag.option.kind in ("bool", "store_true"):
        return (not flag.negated,)
    return tuple(w.text for w in flag.values)


# A launch repeating one option thousands of times (generated, or a paste
# gone wrong) gets this many findings for it, the last saying how many more:
# one finding per repeat would bury the others and cost seconds to check.
MAX_REPEATS_SHOWN = 20


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

    Past 20 repeats of one option, the 20th finding says how many more
    there are and the rest are not reported.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 8000 --max_model_len 8192
    ```

    ## Fix
    Remove the earlier occurrence (safe: the later one already wins).

    ## Fix safety
    Safe: argparse keeps the last occurrence, so removing the earlier one
    changes nothing vLLM sees.

    ## Evidence
    The flags as written, resolved to their options by the release's
    parser (any spelling of one option counts). Options that collect every
    occurrence (`append`, `nargs="*"`) and a `--config` value overridden on
    the command line are not reported; the same value given twice is
    information.
    """

    code = "SL104"
    fixes = frozenset({Applicability.SAFE})
    name = "duplicate-flag"
    category = Category.DUPLICATE_FLAG
    severity = Severity.WARNING

    def check(self, ctx: Context):
        inv = ctx.invocation
        seen: dict[str, object] = {}
        repeats: list[tuple[object, object]] = []
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
            repeats.append((first, flag))
        per_dest: dict[str, int] = {}
        for _, flag in repeats:
            per_dest[flag.option.dest] = per_dest.get(flag.option.dest, 0) + 1
        shown: dict[str, int] = {}
        for first, flag in repeats:
            dest = flag.option.dest
            shown[dest] = n = shown.get(dest, 0) + 1
            if n > MAX_REPEATS_SHOWN:
                continue
            more = per_dest[dest] - n if n == MAX_REPEATS_SHOWN else 0
            same = _value_key(first) == _value_key(flag)
            what = "again with the same value" if same else "again; vLLM keeps this last value"
            if more:
                what += f"; {more:,} later repeats of it are not reported"
            earlier = first.written + ("" if not first.values else " " + " ".join(w.text for w in first.values))
            path = first.word.path if first.word is not None and first.word.path else ctx.path
            yield Finding(
                flag.name_span,
                f"{flag.canonical} is given {what} (earlier: {earlier})",
                flag=flag.canonical,
                path=flag.path,
                severity=Severity.INFORMATION if same else None,
                related=[Related(path, first.name_span, f"{first.written} first given here")],
                fixes=[Fix(f"Remove the earlier {first.written}", remove_flag(ctx.text_of(path), first, ctx.path), applicability=Applicability.SAFE, preferred=True)]
                if ctx.text_of(path) is not None else [],
                tags=("unnecessary",) if same else (),
            )
