"""Which vLLM release a launch targets, and why.

In order: an inline directive (``# servelint: vllm=0.28.0``); a release named
with the launch itself (its container image, a ``docker run`` image inside
it); the nearest release named earlier in the file (image tag, ``pip install
vllm==X``, a ``vllm==X`` pin in a comment); any release named in the file; the
release of the launch that names this ``--config`` file; the setting
(``--vllm-version``, editor or project config); the vllm installed beside
servelint; else the newest release servelint knows.
"""

from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

from .knowledge.versions import version_key
from .model import Launch, ParsedDocument, ReleaseHint
from .text import Span


@dataclass(frozen=True, slots=True)
class ReleaseChoice:
    """The release a launch is checked against, and why."""

    version: str  # a bundled release
    reason: str  # for the hover and the status bar
    span: Span | None = None  # where the deciding hint is written, in this document
    asked: str | None = None  # the release the user named, when it is not bundled as such


@lru_cache(maxsize=1)
def bundled() -> tuple[str, ...]:
    from . import knowledge

    return tuple(knowledge.RELEASES)


def match_bundled(version: str, releases: tuple[str, ...] | None = None) -> tuple[str, str | None]:
    """The bundled release for a named one, and a note when they differ."""
    releases = releases or bundled()
    if version in releases:
        return version, None
    want = version_key(version)
    same_minor = [r for r in releases if version_key(r)[:2] == want[:2]]
    if same_minor and len(version.split(".")) == 2:
        return same_minor[-1], None
    if same_minor:
        best = max((r for r in same_minor if version_key(r) <= want), default=same_minor[0], key=version_key)
        return best, f"servelint has no knowledge of {version}; using {best}"
    if want > version_key(releases[-1]):
        return releases[-1], f"{version} is newer than servelint's knowledge; using {releases[-1]}"
    if want < version_key(releases[0]):
        return releases[0], f"{version} is older than servelint's knowledge; using {releases[0]}"
    older = [r for r in releases if version_key(r) <= want]
    return older[-1], f"servelint has no knowledge of {version}; using {older[-1]}"


_KIND_TEXT = {
    "directive": "the directive",
    "image": "the image",
    "pip": "the install line",
    "comment": "the pin in a comment",
}


def _from_hint(hint: ReleaseHint, where: str) -> ReleaseChoice:
    version, note = _match(hint.version)
    reason = f"{_KIND_TEXT.get(hint.kind, hint.kind)} `{hint.text.strip()}` {where}"
    if note:
        reason += f" ({note})"
    return ReleaseChoice(version, reason, hint.span, hint.version if note else None)


@lru_cache(maxsize=256)
def _match(version: str) -> tuple[str, str | None]:
    # Once per launch per keystroke: the same few hints over and over.
    return match_bundled(version)


@lru_cache(maxsize=1)
def installed_vllm() -> str | None:
    """The vllm installed beside servelint (the project's environment), if any.

    Read from the ``vllm-X.dist-info`` folder name on ``sys.path``: importing
    ``importlib.metadata`` costs more than the whole check of a small file.
    """
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("vllm-") and name.endswith(".dist-info"):
                version = name[len("vllm-") : -len(".dist-info")]
                return version.split("+", 1)[0]
    return None


def _start(h: ReleaseHint) -> int:
    return h.span.start


def _end(h: ReleaseHint) -> int:
    return h.span.end


# (hints list, its first directive): choose runs once per launch with the
# same document's hints, and a manifest has a hint per container.
_LAST_DIRECTIVE: tuple = (None, None)


def _first_directive(hints: list[ReleaseHint]) -> ReleaseHint | None:
    global _LAST_DIRECTIVE
    seen, found = _LAST_DIRECTIVE
    if seen is not hints:
        found = next((h for h in hints if h.kind == "directive"), None)
        _LAST_DIRECTIVE = (hints, found)
    return found


def choose(
    doc: ParsedDocument,
    launch: Launch | None,
    *,
    setting: str | None = None,
    inherited: ReleaseChoice | None = None,
    use_installed: bool = True,
    line_of=None,
) -> ReleaseChoice:
    """``line_of`` maps a document offset to its 0-based line, for reasons."""
    hints = doc.release_hints

    def where(h: ReleaseHint) -> str:
        return f"on line {line_of(h.span.start) + 1}" if line_of else "in this file"

    directive = _first_directive(hints)
    if directive is not None:
        return _from_hint(directive, "in this file")
    if launch is not None:
        if launch.release_hints:
            return _from_hint(launch.release_hints[0], "of this launch's container")
        # Hints are in text order: find the launch's place by bisection (a
        # manifest has a hint per container, and this runs per launch).
        k = bisect_left(hints, launch.span.start, key=_start)
        if k < len(hints) and hints[k].span.start < launch.span.end:
            return _from_hint(hints[k], "in this launch")
        j = bisect_right(hints, launch.span.start, key=_end) - 1
        while j >= 0 and hints[j].span.end > launch.span.start:
            j -= 1
        if j >= 0:
            return _from_hint(hints[j], where(hints[j]))
    if hints:
        return _from_hint(hints[0], where(hints[0]))
    if inherited is not None:
        return ReleaseChoice(inherited.version, f"the launch that uses this file runs it ({inherited.reason})")
    if setting:
        version, note = match_bundled(setting)
        reason = f"the vLLM version setting ({setting})"
        return ReleaseChoice(version, reason + (f"; {note}" if note else ""), None, setting if note else None)
    if use_installed:
        inst = installed_vllm()
        if inst:
            version, note = match_bundled(inst)
            reason = f"vllm {inst} is installed in this Python environment"
            return ReleaseChoice(version, reason + (f"; {note}" if note else ""))
    newest = bundled()[-1]
    return ReleaseChoice(newest, f"no release is named in or for this file: using the newest known, {newest}")

