"""What a regeneration changed, release by release: the report
``generate.py`` prints after adding a release.

Every line is computed from the two releases' records (the one before in
the tables and the new one); nothing here runs vLLM.
"""

from __future__ import annotations

import json


def _key(v: str) -> tuple:
    from generate import version_key

    return version_key(v)


def _options(rec: dict, entry: str = "serve") -> dict[str, dict]:
    return {o["dest"]: o for o in rec["entries"].get(entry, {}).get("options", ())}


def _primary(o: dict) -> str:
    for s in o["visible"] or o["strings"]:
        if s.startswith("--"):
            return s
    return (o["visible"] or o["strings"] or [o["dest"]])[0]


def _short(value, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def compare(old: dict, new: dict) -> list[str]:
    """Lines describing how ``new`` differs from ``old`` (two release records)."""
    lines: list[str] = []
    a, b = _options(old), _options(new)
    added = [b[d] for d in b if d not in a]
    removed = [a[d] for d in a if d not in b]
    if added:
        lines.append(f"flags added ({len(added)}): " + ", ".join(sorted(_primary(o) for o in added)))
    if removed:
        lines.append(f"flags removed ({len(removed)}): " + ", ".join(sorted(_primary(o) for o in removed)))
    strings_a = {s for o in a.values() for s in o["strings"]}
    strings_b = {s for o in b.values() for s in o["strings"]}
    spell_added = sorted(strings_b - strings_a - {s for o in added for s in o["strings"]})
    spell_removed = sorted(strings_a - strings_b - {s for o in removed for s in o["strings"]})
    if spell_added:
        lines.append(f"spellings added ({len(spell_added)}): " + ", ".join(spell_added[:40])
                     + (" …" if len(spell_added) > 40 else ""))
    if spell_removed:
        lines.append(f"spellings removed ({len(spell_removed)}): " + ", ".join(spell_removed))
    for field, label in (("default", "default"), ("choices", "choices"), ("kind", "kind"),
                         ("nargs", "nargs"), ("type", "type"), ("deprecated", "deprecation")):
        changed = [(d, a[d][field], b[d][field]) for d in b if d in a and a[d][field] != b[d][field]]
        if changed:
            lines.append(f"{label} changed ({len(changed)}):")
            for d, x, y in sorted(changed):
                lines.append(f"  {_primary(b[d])}: {_short(x)} -> {_short(y)}")
    for entry in sorted(set(old["entries"]) | set(new["entries"])):
        if entry not in new["entries"]:
            lines.append(f"entry point gone: {entry}")
            continue
        if entry not in old["entries"]:
            lines.append(f"entry point added: {entry} ({new['entries'][entry].get('built_by')})")
            continue
        fa = old["entries"][entry].get("facts") or {}
        fb = new["entries"][entry].get("facts") or {}
        for k in sorted(set(fa) | set(fb)):
            if fa.get(k) != fb.get(k):
                lines.append(f"{entry} parser: {k}: {_short(fa.get(k), 120)} -> {_short(fb.get(k), 120)}")
        if entry != "serve":
            da, db = _options(old, entry), _options(new, entry)
            plus = sorted(_primary(db[d]) for d in db if d not in da)
            minus = sorted(_primary(da[d]) for d in da if d not in db)
            if plus or minus:
                lines.append(f"{entry} flags: +{len(plus)} -{len(minus)}"
                             + (f" (+ {', '.join(plus[:20])})" if plus else "")
                             + (f" (- {', '.join(minus[:20])})" if minus else ""))
    archs_a, archs_b = set(old["architectures"]), set(new["architectures"])
    if archs_b - archs_a:
        lines.append(f"architectures added ({len(archs_b - archs_a)}): " + ", ".join(sorted(archs_b - archs_a)))
    if archs_a - archs_b:
        lines.append(f"architectures removed ({len(archs_a - archs_b)}): " + ", ".join(sorted(archs_a - archs_b)))
    lost = sorted(n for n in archs_b if "error" in new["architectures"][n]
                  and n in archs_a and "error" not in old["architectures"][n])
    if lost:
        lines.append(f"architectures now without facts ({len(lost)}): " + ", ".join(lost))
    return lines


def rules_to_review(version: str) -> list[str]:
    """Rules whose ``reviewed`` releases do not include ``version`` (when
    the rule registry records them)."""
    try:
        from servelint.rules import registry  # the lead's registry, when it exists
    except Exception:
        return []
    out = []
    for rule in getattr(registry, "all_rules", lambda: [])():
        reviewed = getattr(rule, "reviewed", None)
        if reviewed is not None and version not in reviewed:
            out.append(f"{rule.code} {rule.name}")
    return out


def render(before: dict[str, dict], after: dict[str, dict], fresh: list[str]) -> str:
    """The report for the releases in ``fresh``, each against the release
    before it in ``after`` (the new tables)."""
    order = sorted(after, key=_key)
    out = []
    for v in fresh:
        i = order.index(v)
        prev = order[i - 1] if i else None
        title = f"== vLLM {v}" + (f" (against {prev})" if prev else " (the oldest release)")
        out.append(title)
        if v in before and before[v] != after[v]:
            out.append("  (regenerated: the release was in the tables; changes against the old tables:)")
            out.extend("    " + line for line in compare(before[v], after[v]) or ["no option changes"])
        if prev:
            out.extend("  " + line for line in compare(after[prev], after[v]) or ["no changes"])
        problems = after[v].get("problems") or []
        if problems:
            out.append(f"  CHECK problems ({len(problems)}):")
            out.extend("    " + p for p in problems)
        review = rules_to_review(v)
        if review:
            out.append(f"  rules to review for {v}: " + ", ".join(review))
    return "\n".join(out)
