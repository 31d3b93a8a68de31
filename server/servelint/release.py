"""Which vLLM release a launch targets, and why.

In order: an inline directive (``# servelint: vllm=0.28.0``); a release named
with the launch itself (its container image, a ``docker run`` image inside
it, including a custom image whose name carries ``vllm`` and whose tag is a
vLLM version, ``…/vllm-openai-ubi9:0.4.2``); the nearest release named
earlier in the file (image tag, ``pip install vllm==X``, a ``vllm==X`` pin
in a comment); any release named in the file; the release of the launch
that names this ``--config`` file; a pin in the project files beside the
file (``requirements.txt``, ``pyproject.toml``, ``uv.lock``); the setting
(``--vllm-version``, editor or project config); the vllm installed beside
servelint; else the newest release servelint knows.

A named release servelint has no tables for is matched to one it has
(``match_bundled``): a patch release to the nearest release of its minor
(said in the reason, which the hover shows); a release older than the
oldest, newer than the newest, or not a version at all to the nearest end,
and ``ReleaseChoice.outside`` says so, for the one information diagnostic
at the pin.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from .structs import dataclass
from .knowledge.versions import version_key
from .model import Entry, Launch, ParsedDocument, ReleaseHint
from .text import Span


@dataclass(frozen=True, slots=True)
class ReleaseChoice:
    """The release a launch is checked against, and why."""

    version: str  # a bundled release
    reason: str  # for the hover and the status bar
    span: Span | None = None  # where the deciding hint is written, in this document
    asked: str | None = None  # the release the user named, when it is not bundled as such
    # "older" / "newer" / "unparseable" when the named release lies outside
    # the releases servelint knows (then ``note`` says which is used).
    outside: str | None = None
    note: str | None = None
    # A pin written in another file (a project file beside the document).
    pin_path: str | None = None
    pin_line: int | None = None


@lru_cache(maxsize=1)
def bundled() -> tuple[str, ...]:
    from . import knowledge

    return tuple(knowledge.RELEASES)


def match_bundled(version: str, releases: tuple[str, ...] | None = None) -> tuple[str, str | None]:
    """The bundled release for a named one, and a note when they differ."""
    version, note, _ = classify(version, releases)
    return version, note


_RELEASE = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:\.?post\d+)?$")


def classify(version: str, releases: tuple[str, ...] | None = None) -> tuple[str, str | None, str | None]:
    """(bundled release, note, outside) for a named release: ``outside`` is
    "older", "newer" or "unparseable" when the name lies outside what
    servelint knows, None when it is known or a patch release of a known
    minor (then the note names the release used instead)."""
    releases = releases or bundled()
    if version in releases:
        return version, None, None
    if not _RELEASE.match(version.strip()):
        newest = releases[-1]
        return newest, f"{version!r} is not a vLLM version; using the newest known, {newest}", "unparseable"
    version = version.strip().lstrip("vV")
    want = version_key(version)
    if want < version_key(releases[0]):
        return releases[0], f"vLLM {version} is older than servelint's knowledge ({releases[0]} on); using {releases[0]}", "older"
    if want[:2] > version_key(releases[-1])[:2]:
        return releases[-1], f"vLLM {version} is newer than servelint's knowledge (up to {releases[-1]}); using {releases[-1]}", "newer"
    same_minor = [r for r in releases if version_key(r)[:2] == want[:2]]
    if same_minor and len(version.split(".")) == 2:
        return same_minor[-1], None, None
    if same_minor:
        best = max((r for r in same_minor if version_key(r) <= want), default=same_minor[0], key=version_key)
        return best, f"servelint has no tables for vLLM {version}; using {best}, the nearest release of {version.rsplit('.', version.count('.') - 1)[0]}", None
    older = [r for r in releases if version_key(r) <= want]
    return older[-1], f"servelint has no tables for vLLM {version}; using {older[-1]}", None


_KIND_TEXT = {
    "directive": "the directive",
    "image": "the image",
    "pip": "the install line",
    "comment": "the pin in a comment",
}


def _from_hint(hint: ReleaseHint, where: str) -> ReleaseChoice:
    version, note, outside = _match(hint.version)
    reason = f"{_KIND_TEXT.get(hint.kind, hint.kind)} `{hint.text.strip()}` {where}"
    if note:
        reason += f" ({note})"
    return ReleaseChoice(version, reason, hint.span, hint.version if note else None, outside, note)


@lru_cache(maxsize=256)
def _match(version: str) -> tuple[str, str | None, str | None]:
    # Once per launch per keystroke: the same few hints over and over.
    return classify(version)


def image_hint(launch: Launch) -> ReleaseHint | None:
    """The release a launch's own image names by its tag, for an image the
    parsers left without a hint (a custom build whose name carries ``vllm``:
    ``quay.io/org/vllm-openai-ubi9:0.4.2``).  An unrelated image's tag
    names no release."""
    if not launch.image:
        return None
    from .knowledge import images

    version = images.tag_version(launch.image)
    if version is None:
        return None
    span = launch.entry_span if launch.entry is Entry.IMAGE else launch.span
    return ReleaseHint(version, span, "image", launch.image)


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
    project=None,
) -> ReleaseChoice:
    """``line_of`` maps a document offset to its 0-based line, for reasons.
    ``project``: the release pinned by the project files beside the
    document (``project_pin``), or a function that reads it when needed."""
    hints = doc.release_hints

    def where(h: ReleaseHint) -> str:
        return f"on line {line_of(h.span.start) + 1}" if line_of else "in this file"

    directive = _first_directive(hints)
    if directive is not None:
        return _from_hint(directive, "in this file")
    if launch is not None:
        if launch.release_hints:
            return _from_hint(launch.release_hints[0], "of this launch's container")
        own = image_hint(launch)
        if own is not None:
            return _from_hint(own, "of this launch's container")
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
    if callable(project):
        project = project()
    if project is not None:
        return project
    if setting:
        version, note, outside = classify(setting)
        reason = f"the vLLM version setting ({setting})"
        return ReleaseChoice(version, reason + (f"; {note}" if note else ""), None, setting if note else None,
                             outside, note)
    if use_installed:
        inst = installed_vllm()
        if inst:
            version, note, _ = classify(inst)
            reason = f"vllm {inst} is installed in this Python environment"
            return ReleaseChoice(version, reason + (f"; {note}" if note else ""))
    newest = bundled()[-1]
    return ReleaseChoice(newest, f"no release is named in or for this file: using the newest known, {newest}")



# Project files that pin the vllm a directory's launches run, nearest
# first in precedence: a lock file's resolution, then exact requirements.
PROJECT_FILES = ("uv.lock", "requirements.txt", "pyproject.toml")

_REQ_PIN = re.compile(r"^\s*vllm(?:\[[^\]]*\])?\s*===?\s*([^\s;#,\"']+)", re.M | re.I)
_UV_LOCK = re.compile(r'^\[\[package\]\]\s*\nname\s*=\s*"vllm"\s*\nversion\s*=\s*"([^"]+)"', re.M)
_TOML_DEP = re.compile(r'''["']vllm(?:\[[^\]]*\])?\s*===?\s*([^"';,\s]+)\s*(?:;[^"']*)?["']''', re.I)
_POETRY_DEP = re.compile(r'''^\s*vllm\s*=\s*(?:\{[^}]*version\s*=\s*)?["']=?=?\s*(\d[^"'\s]*)["']''', re.M | re.I)


def project_pin(files: list[tuple[str, str]]) -> ReleaseChoice | None:
    """The release pinned by the project files beside a document, given as
    ``(path, text)`` pairs (``engine/io`` reads them; PROJECT_FILES names
    them).  Only exact pins count: a ``uv.lock`` resolution, ``vllm==X``
    in ``requirements.txt`` or ``pyproject.toml`` (PEP 621 dependencies or
    a Poetry ``vllm = "X"``); a range (``vllm>=0.8``) pins nothing."""
    for path, text in files:
        name = os.path.basename(path)
        if name == "uv.lock":
            m = _UV_LOCK.search(text)
        elif name.endswith(".toml"):
            m = _TOML_DEP.search(text) or _POETRY_DEP.search(text)
        else:
            m = _REQ_PIN.search(text)
        if m is None:
            continue
        asked = m.group(1).strip()
        version, note, outside = classify(asked)
        line = text.count("\n", 0, m.start(1)) + 1
        reason = f"the pin `vllm=={asked}` in {name} (line {line}) beside this file"
        if note:
            reason += f" ({note})"
        return ReleaseChoice(version, reason, None, asked if note else None, outside, note,
                             pin_path=path, pin_line=line)
    return None
