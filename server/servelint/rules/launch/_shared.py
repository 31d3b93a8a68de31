"""What the launch family's rules share: vLLM's look at the words before argparse."""

from __future__ import annotations

import re

from ...model import Entry

# Compiled by re's cache on first use: only a launch starting with an option
# needs them, and each module-level compile is ~0.3 ms of a cold check.
_SERVED = r"^--served[-_]model[-_]name(=.+|$)"
_MODEL = r"^--model(=.+|$)"
_CONFIG = r"^--config(=.+|$)"


def served_name_first(inv) -> "object | None":
    """The --served-model-name flag when vLLM rejects the launch for lacking a model first.

    ``FlexibleArgumentParser.parse_args`` (vllm/utils/argparse_utils.py)
    looks at the words as written, before argparse: only the full spellings
    count (``re.match(r"^--served[-_]model[-_]name(=.+|$)")``, and
    ``r"^--model(=.+|$)"`` / ``r"^--config(=.+|$)"`` for the ways out), so
    an abbreviated ``--served`` is left to argparse.
    """
    launch = inv.launch
    if launch.entry not in (Entry.SERVE, Entry.IMAGE) or not launch.args or launch.entry_unknown:
        return None
    if not launch.args[0].text.startswith("-"):
        return None
    if any(re.match(_CONFIG, w.text) for w in launch.args):
        return None
    if any(re.match(_MODEL, w.text) for w in launch.args):
        return None
    served = [f for f in inv.flags if f.source == "cli" and f.word is not None and re.match(_SERVED, f.word.text)]
    return served[0] if served else None
