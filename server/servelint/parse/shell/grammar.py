"""tree-sitter-bash: the grammar, one parser per process, and the text it is given."""

from __future__ import annotations

import os
import re
import threading

from tree_sitter import Language, Parser, Range


def _bash_grammar():
    """tree-sitter-bash's language, without running its package's
    ``__init__``: that imports ``importlib.resources`` (with pathlib,
    tempfile and zipfile: 14 ms, a tenth of a cold ``check``) for highlight
    queries servelint never reads.  Tree-sitter's grammar packages all ship
    the language in a ``_binding`` extension module; should this one not,
    the package is imported the usual way."""
    import importlib.machinery as machinery

    try:
        spec = machinery.PathFinder.find_spec("tree_sitter_bash")
        for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
            for suffix in machinery.EXTENSION_SUFFIXES:
                path = os.path.join(folder, "_binding" + suffix)
                if os.path.isfile(path):
                    loader = machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
                    binding = loader.create_module(machinery.ModuleSpec(loader.name, loader, origin=path))
                    loader.exec_module(binding)
                    return binding.language()
    except Exception:  # noqa: BLE001 - any surprise: the documented way below
        pass
    import tree_sitter_bash

    return tree_sitter_bash.language()


_LANGUAGE = Language(_bash_grammar())
_PARSER: Parser | None = None
_PARSER_LOCK = threading.Lock()


def parse_tree(data: bytes):
    # One parser per process (creating one costs more than parsing a script);
    # the lock keeps it safe if a server ever parses from two threads.
    global _PARSER
    with _PARSER_LOCK:
        if _PARSER is None:
            _PARSER = Parser(_LANGUAGE)
        return _PARSER.parse(data)


_RANGE_PARSER: Parser | None = None


def parse_range(data: bytes, src: str, a: int, b: int):
    """``data[a:b]`` parsed alone, its nodes at their places in ``data``
    (``src`` is ``data`` as text: ASCII, so bytes and characters agree)."""
    global _RANGE_PARSER
    row = src.count("\n", 0, a)
    start = (row, a - (src.rfind("\n", 0, a) + 1))
    end = (row + src.count("\n", a, b), b - (src.rfind("\n", 0, b) + 1))
    with _PARSER_LOCK:
        if _RANGE_PARSER is None:
            _RANGE_PARSER = Parser(_LANGUAGE)
        _RANGE_PARSER.included_ranges = [Range(start, end, a, b)]
        return _RANGE_PARSER.parse(data)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def ascii_only(text: str) -> str:
    """The text bash's grammar sees: every non-ASCII character becomes ``%``.

    tree-sitter-bash's scanner calls ``isalpha``/``isdigit`` on the raw code
    point, which reads outside glibc's tables and crashes the process for
    some characters (tree-sitter-bash#337: ``{`` followed by U+31860).  To
    bash such characters are plain word characters, as ``%`` is (and ``%``
    cannot continue a variable name), so the tree keeps its shape.  Words
    are still read from the original text.  A bonus: byte offsets become
    character offsets.
    """
    if text.isascii():
        return text
    return _NON_ASCII.sub("%", text)
