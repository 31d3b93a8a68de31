"""SL013: a pinned vLLM release servelint has no tables for."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ..base import ParseProblemRule


class ReleaseNotKnown(ParseProblemRule):
    """A file pins a vLLM release outside what servelint knows.

    ## What it does
    Reports, once per file and at the pin, a release named by an image tag
    (`vllm/vllm-openai:v0.4.2`, a custom `…/vllm-openai-ubi9:0.4.2`), a
    `pip install vllm==X`, a `vllm==X` in `requirements.txt`,
    `pyproject.toml` or `uv.lock` beside the file, or the vLLM version
    setting, when it is older than the oldest release servelint knows, newer
    than the newest, or not a version at all; and says which release's
    knowledge is used instead.  A patch release servelint does not know
    (`0.8.5.post2`) is read as the nearest release of its minor without a
    diagnostic; the hover on the launch says so.

    ## Why
    Flags and their checks change from release to release: a file checked
    against another release's flags can be told a flag it needs is unknown,
    or pass one its release rejects.  The user should know which knowledge
    the findings rest on.

    ## Example
    ```sh
    docker run vllm/vllm-openai:v0.4.2 --model facebook/opt-125m
    ```

    ## Fix
    Pin a release servelint knows (0.6.0 on), or accept that the findings
    are those of the release named in the message.

    ## Evidence
    The pin as written in (or beside) the file.
    """

    code = "SL013"
    name = "release-not-known"
    category = Category.CONFIG
    severity = Severity.INFORMATION


def message(asked: str, note: str | None, where: str | None = None) -> str:
    """The diagnostic's text for a pin of ``asked`` (the release choice's
    note), written in the document or in the project file ``where``."""
    import os

    text = note or f"servelint has no tables for vLLM {asked}"
    return f"{text} (pinned in {os.path.basename(where)} beside this file)" if where else text
