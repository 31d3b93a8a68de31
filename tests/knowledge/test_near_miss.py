"""Which option strings count as what the user meant ("did you mean"), and
which are only alike: issue 16 item 6."""

from __future__ import annotations

import pytest

from servelint.rules.flags._shared import near_miss, nearest


@pytest.mark.parametrize("written, meant", [
    ("--max-model-length", "--max-model-len"),      # a word lengthened
    ("--tensor-paralel-size", "--tensor-parallel-size"),  # a typo
    ("--gpu-memory-utilisation", "--gpu-memory-utilization"),
    ("--enable-prefix-cache", "--enable-prefix-caching"),
    ("--served-model", "--served-model-name"),       # a word left out
    ("--tool-parser", "--tool-call-parser"),
    ("--max-num-batch-tokens", "--max-num-batched-tokens"),
    ("--kv-cache-type", "--kv-cache-dtype"),
    ("--model-max-len", "--max-model-len"),          # words reordered
    ("--disable-log-request", "--disable-log-requests"),
])
def test_real_near_misses(written, meant):
    assert near_miss(written, meant)


@pytest.mark.parametrize("written, other", [
    ("--guided-decoding-backend", "--kda-decode-backend"),
    ("--num-scheduler-steps", "--max-num-scheduled-tokens"),
    ("--num-scheduler-steps", "--scheduler-cls"),
    ("--swap-space", "--swap-spaces-dir"),
    ("--task", "--tokenizer"),
    ("--worker-use-ray", "--worker-cls"),
])
def test_flags_that_only_share_words(written, other):
    assert not near_miss(written, other)


def test_nearest_keeps_only_near_misses_closest_first():
    candidates = ["--max-model-len", "--max-num-seqs", "--kda-decode-backend", "--max-num-scheduled-tokens", "-tp",
                  "--tensor-parallel-size", "--scheduler-cls"]
    assert nearest("--max-model-length", candidates) == ["--max-model-len"]
    assert nearest("--guided-decoding-backend", candidates) == []
    assert nearest("--num-scheduler-steps", candidates) == []
    # a short alias written with two dashes
    assert nearest("--tp", candidates) == ["-tp"]
