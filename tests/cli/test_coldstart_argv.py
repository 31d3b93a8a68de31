"""`check` and `lsp` command lines read without argparse (cli._quick_args)
must read exactly as argparse does, and leave to argparse what they do not read."""

from __future__ import annotations

import pytest

from servelint import cli

READ = [
    ["check"],
    ["check", "a.sh"],
    ["check", "a.sh", "b.yaml", "-"],
    ["check", "--format", "json", "--fail-on", "never", "one-file.sh"],
    ["check", "--format=sarif", "--fail-on=warning", "x"],
    ["check", "a.sh", "--format", "github"],
    ["check", "--fix", "--diff", "--no-config", "a.sh", "b.sh"],
    ["check", "--records", "r1", "--records=r2", "--disable", "SL101", "--disable=unknown-flag", "."],
    ["check", "--vllm-version", "0.28.0", "--target", "rocm", "-j", "1", "a"],
    ["check", "--jobs=3", "--vllm-version=", "--stdin-filename", "run.sh", "-"],
    ["check", "--format", "text", "--format", "json", ""],
    ["check", "-j", "02", "a"],
    ["check", "--max-launches", "0", "a"],
    ["check", "--max-launches=20000", "--format", "json", "a"],
    ["lsp"],
    ["lsp", "--stdio"],
]

LEFT_TO_ARGPARSE = [
    [],
    ["rules"],
    ["rule", "SL101"],
    ["--version"],
    ["lsp", "--tcp"],
    ["check", "--help"],
    ["check", "-h"],
    ["check", "--form", "json", "a"],  # an abbreviation argparse accepts
    ["check", "-j2", "a"],
    ["check", "-j", "0", "a"],
    ["check", "-j", "²", "a"],
    ["check", "--jobs", " 2", "a"],
    ["check", "--format", "xml", "a"],
    ["check", "--format"],
    ["check", "--format", "-", "a"],
    ["check", "a", "--fix", "b"],  # argparse: "unrecognized arguments: b"
    ["check", "--", "-a"],
    ["check", "--fix=yes"],
    ["check", "-j=2"],
    ["check", "--unknown", "a"],
    ["check", "-1"],
    ["check", "--max-launches", "-1", "a"],
    ["check", "--max-launches", "many", "a"],
]


@pytest.mark.parametrize("argv", READ, ids=" ".join)
def test_read_as_argparse_reads(argv: list[str]) -> None:
    quick = cli._quick_args(argv)
    assert quick is not None
    assert vars(quick) == vars(cli._parser().parse_args(argv))


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE, ids=" ".join)
def test_others_left_to_argparse(argv: list[str]) -> None:
    assert cli._quick_args(argv) is None
