"""Seeded generator of benchmark inputs: launch scripts, manifests, repositories.

Nothing generated is checked in: every input is a pure function of its
arguments and a seed, so two runs of the harness (or two machines) time the
same bytes.  ``python bench/gen.py repo OUT`` or ``python bench/gen.py shell
2000 > x.sh`` writes them out for a look.

Each generator mirrors a form from the launch-file survey
(shared/research/launch-configs.md): mostly clean launches, with a few
percent carrying the mistakes servelint exists for, so the language server
publishes a realistic handful of diagnostics rather than none or thousands.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from dataclasses import dataclass

# HF ids servelint resolves offline, with the oracle's bundled stand-in.
MODELS = [
    ("meta-llama/Llama-3.1-8B-Instruct", "llama"),
    ("Qwen/Qwen3-8B", "qwen3"),
    ("mistralai/Mistral-7B-Instruct-v0.3", "mistral"),
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral"),
    ("deepseek-ai/DeepSeek-V3", "deepseek-v3"),
    ("nvidia/Nemotron-H-8B-Base-8K", "nemotronh"),
    ("mistralai/Mamba-Codestral-7B-v0.1", "mamba2"),
    ("tiiuae/Falcon-H1-7B-Instruct", "falcon-h1"),
    ("ai21labs/AI21-Jamba-Mini-1.5", "jamba"),
    ("google/gemma-3-1b-it", "gemma3"),
]
HF_OF = {short: hf for hf, short in MODELS}

# Flags that are valid on every release 0.25–0.33, with plausible values.
GOOD_FLAGS = [
    ("--max-model-len", ["4096", "8192", "16384", "32768"]),
    ("--gpu-memory-utilization", ["0.85", "0.9", "0.92"]),
    ("--tensor-parallel-size", ["1", "2", "4"]),
    ("--dtype", ["bfloat16", "auto", "float16"]),
    ("--max-num-seqs", ["64", "128", "256"]),
    ("--max-num-batched-tokens", ["4096", "8192"]),
    ("--served-model-name", ["chat", "base", "assistant"]),
    ("--host", ["0.0.0.0", "127.0.0.1"]),
    ("--seed", ["0", "42"]),
    ("--enable-prefix-caching", [None]),
    ("--enforce-eager", [None]),
    ("--trust-remote-code", [None]),
]

# The mistakes servelint is for (each one gives at least one diagnostic).
BAD_FLAGS = [
    ("--tensor-paralel-size", "2"),         # typo → unknown flag
    ("--gpu-memory-utilization", "95"),     # percent instead of a fraction
    ("--dtype", "bf16"),                    # not a choice
    ("--tensor-parallel-size", "two"),      # not an int
]
BAD_RATE = 0.05


def _flags(rng: random.Random, n: int, bad: bool) -> list[tuple[str, str | None]]:
    picked = rng.sample(GOOD_FLAGS, k=min(n, len(GOOD_FLAGS)))
    out = [(name, rng.choice(values)) for name, values in picked]
    if bad:
        out.insert(rng.randrange(len(out) + 1), rng.choice(BAD_FLAGS))
    return out


def _words(flags) -> list[str]:
    out = []
    for name, value in flags:
        out.append(name)
        if value is not None:
            out.append(value)
    return out


# -- shell ---------------------------------------------------------------------

def _shell_launch(rng: random.Random, i: int, bad: bool) -> list[str]:
    model = rng.choice(MODELS)[0]
    flags = _flags(rng, rng.randint(3, 7), bad)
    style = rng.random()
    if style < 0.15:
        # One-line launch, as in quick experiments.
        return [f"vllm serve {model} --port {8000 + i % 1000} " + " ".join(_words(flags)) + " &"]
    if style < 0.3:
        lines = [f'docker run --gpus all -p {8000 + i % 1000}:8000 vllm/vllm-openai:v0.33.0 \\',
                 f"  {model} \\"]
    else:
        lines = [f'CUDA_VISIBLE_DEVICES={i % 8} vllm serve "{model}" \\',
                 f'  --port "$((BASE_PORT + {i % 100}))" \\']
    for name, value in flags:
        lines.append(f"  {name} {value} \\" if value is not None else f"  {name} \\")
    lines.append('  >"$LOG_DIR/server-%d.log" 2>&1 &' % i)
    return lines


def _shell_filler(rng: random.Random, i: int) -> list[str]:
    kind = rng.randrange(5)
    if kind == 0:
        return [f"# step {i}: " + rng.choice(["warm the cache", "rotate logs", "wait for health", "pin GPUs"])]
    if kind == 1:
        return [f"NAME_{i}=${{NAME_{i}:-value-{i}}}", f'export PATH_{i}="/opt/run/{i}"']
    if kind == 2:
        return [f"wait_for_{i}() {{",
                f"  for t in $(seq 1 30); do",
                f'    curl -sf "http://127.0.0.1:$((BASE_PORT + {i % 100}))/health" && return 0',
                "    sleep 2",
                "  done",
                "  return 1",
                "}"]
    if kind == 3:
        return [f'if [ -n "${{DEBUG:-}}" ]; then',
                f'  echo "launch {i}" >&2',
                "else",
                f"  : # quiet",
                "fi"]
    return [f'echo "started job {i} at $(date +%s)"']


def shell_script(n_lines: int, seed: int = 0, marked: bool = True) -> "Generated":
    """A launch script of about ``n_lines`` lines; a launch every ~20 lines.

    The middle of the file holds a known launch (``marked``) whose typo
    ``--max-modl-len`` is where edit benchmarks type.
    """
    rng = random.Random(seed * 1_000_003 + n_lines)
    head = ["#!/usr/bin/env bash", "# generated by bench/gen.py", "set -euo pipefail",
            "BASE_PORT=${BASE_PORT:-8000}", 'LOG_DIR=${LOG_DIR:-/tmp/vllm-logs}', 'mkdir -p "$LOG_DIR"', ""]
    lines = list(head)
    marked_at = None
    i = 0
    while len(lines) < n_lines - 4:
        if marked and marked_at is None and len(lines) >= n_lines // 2:
            marked_at = len(lines)
            lines += MARKED_SHELL
            continue
        if rng.random() < 0.22:
            lines += _shell_launch(rng, i, rng.random() < BAD_RATE)
        else:
            lines += _shell_filler(rng, i)
        i += 1
    if marked and marked_at is None:
        marked_at = len(lines)
        lines += MARKED_SHELL
    lines += ["", "wait"]
    return Generated("\n".join(lines) + "\n", "shell", MARKED_WORD)


MARKED_WORD = "--max-modl-len"
MARKED_SHELL = [
    "# the launch the edit benchmarks type into",
    "CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct \\",
    "  --port 8100 \\",
    f"  {MARKED_WORD} 8192 \\",
    "  --gpu-memory-utilization 0.9 &",
]


# -- kubernetes ----------------------------------------------------------------

def _k8s_deployment(rng: random.Random, i: int, bad: bool, marked: bool = False) -> list[str]:
    model = "meta-llama/Llama-3.1-8B-Instruct" if marked else rng.choice(MODELS)[0]
    flags = [(MARKED_WORD, "8192"), ("--port", "8000")] if marked else _flags(rng, rng.randint(3, 7), bad)
    lines = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", f"  name: vllm-{i}",
             "  labels:", f"    app: vllm-{i}", "spec:", "  replicas: 1", "  selector:",
             f"    matchLabels: {{app: vllm-{i}}}", "  template:", "    metadata:",
             f"      labels: {{app: vllm-{i}}}", "    spec:", "      containers:", "        - name: vllm",
             "          image: vllm/vllm-openai:v0.33.0", "          args:", f"            - {model}"]
    for name, value in flags:
        if rng.random() < 0.3 and value is not None:
            lines.append(f'            - "{name}={value}"')
        else:
            lines.append(f"            - {name}")
            if value is not None:
                lines.append(f'            - "{value}"')
    lines += ["          env:", "            - name: HF_HOME", "              value: /models",
              "          ports:", "            - containerPort: 8000",
              "          resources:", "            limits:", '              nvidia.com/gpu: "1"']
    return lines


def _k8s_service(i: int) -> list[str]:
    return ["apiVersion: v1", "kind: Service", "metadata:", f"  name: vllm-{i}", "spec:",
            f"  selector: {{app: vllm-{i}}}", "  ports:", "    - port: 80", "      targetPort: 8000"]


def k8s_multidoc(n_lines: int, seed: int = 0, marked: bool = True) -> "Generated":
    """A multi-document manifest (Deployments and Services) of ~``n_lines``."""
    rng = random.Random(seed * 1_000_033 + n_lines)
    docs: list[list[str]] = []
    total = 0
    i = 0
    placed = not marked
    while total < n_lines - 40:
        if not placed and total >= n_lines // 2:
            doc = _k8s_deployment(rng, i, False, marked=True)
            placed = True
        elif rng.random() < 0.6:
            doc = _k8s_deployment(rng, i, rng.random() < BAD_RATE)
        else:
            doc = _k8s_service(i)
        docs.append(doc)
        total += len(doc) + 1
        i += 1
    if not placed:
        docs.append(_k8s_deployment(rng, i, False, marked=True))
    return Generated("---\n".join("\n".join(d) + "\n" for d in docs), "yaml", MARKED_WORD)


# -- files where every launch has a finding ---------------------------------------
#
# The keystroke cost must follow what changed, not how many findings the file
# holds elsewhere (issue 22): these two files carry one finding per launch.

def _one_mistake(rng: random.Random) -> tuple[list[tuple[str, str | None]], tuple[str, str]]:
    """Clean flags (whose findings, if any, do not depend on each other) and one mistake."""
    clean = [f for f in GOOD_FLAGS if f[0] in _INDEPENDENT]
    picked = rng.sample(clean, k=2)
    return [(name, rng.choice(values)) for name, values in picked], rng.choice(BAD_FLAGS)


# Flags no validator relates to the mistakes above or to each other.
_INDEPENDENT = ("--max-num-seqs", "--served-model-name", "--host", "--seed")


def shell_errors(n_lines: int, seed: int = 0) -> "Generated":
    """A script of ~``n_lines`` lines made of six-line launches, each with
    one mistake (2,000 lines: 333 launches, 333 diagnostics).  The launch
    in the middle holds the marked typo the edit sequences type into (its
    one mistake)."""
    rng = random.Random(seed * 1_000_037 + n_lines)
    lines = ["#!/usr/bin/env bash", "set -euo pipefail"]
    count = (n_lines - len(lines)) // 6
    for i in range(count):
        good, bad = _one_mistake(rng)
        if i == count // 2:
            good, bad = good, (MARKED_WORD, "8192")
        model = rng.choice(MODELS)[0]
        words = [(name, value) for name, value in good] + [bad]
        lines.append(f"vllm serve {model} --port {8000 + i} \\")
        for name, value in words:
            lines.append(f"  {name} {value} \\" if value is not None else f"  {name} \\")
        lines.append(f'  >"/tmp/server-{i}.log" 2>&1 &')
        lines += [""] * (6 - 2 - len(words))
    return Generated("\n".join(lines) + "\n", "shell", MARKED_WORD)


def k8s_list(pods: int, seed: int = 0) -> "Generated":
    """A Kubernetes ``List`` of ``pods`` Pods (one YAML document), each with
    one mistake in its container's args; the pod in the middle holds the
    marked typo."""
    rng = random.Random(seed * 1_000_039 + pods)
    lines = ["apiVersion: v1", "kind: List", "items:"]
    for i in range(pods):
        good, bad = _one_mistake(rng)
        if i == pods // 2:
            bad = (MARKED_WORD, "8192")
        model = rng.choice(MODELS)[0]
        lines += ["  - apiVersion: v1", "    kind: Pod", "    metadata:", f"      name: vllm-{i}",
                  "    spec:", "      containers:", "        - name: vllm",
                  "          image: vllm/vllm-openai:v0.33.0", "          args:", f"            - {model}"]
        for name, value in good + [bad]:
            lines.append(f"            - {name}")
            if value is not None:
                lines.append(f'            - "{value}"')
        lines += ["          ports:", "            - containerPort: 8000"]
    return Generated("\n".join(lines) + "\n", "yaml", MARKED_WORD)


# -- small files of every form (the repository) ---------------------------------

def _compose(rng: random.Random, i: int, bad: bool) -> str:
    out = ["services:"]
    for s in range(rng.randint(1, 3)):
        model = rng.choice(MODELS)[0]
        words = [model] + _words(_flags(rng, rng.randint(2, 6), bad and s == 0))
        out += [f"  vllm-{s}:", "    image: vllm/vllm-openai:v0.33.0",
                "    command: [" + ", ".join(json.dumps(w) for w in words) + "]",
                "    ports:", f'      - "{8000 + s}:8000"', "    environment:", "      HF_TOKEN: ${HF_TOKEN}"]
    return "\n".join(out) + "\n"


def _vllm_config(rng: random.Random, i: int, bad: bool) -> str:
    model = rng.choice(MODELS)[0]
    out = [f"# vllm serve --config config-{i}.yaml", f"model: {model}"]
    for name, value in _flags(rng, rng.randint(3, 7), bad):
        out.append(f"{name[2:]}: {'true' if value is None else value}")
    return "\n".join(out) + "\n"


def _dockerfile(rng: random.Random, i: int, bad: bool) -> str:
    model = rng.choice(MODELS)[0]
    words = ["--model", model] + _words(_flags(rng, rng.randint(2, 5), bad))
    return "\n".join([
        "FROM vllm/vllm-openai:v0.33.0",
        "ENV HF_HOME=/models",
        "RUN pip install --no-cache-dir hf_transfer",
        "EXPOSE 8000",
        "CMD [" + ", ".join(json.dumps(w) for w in words) + "]",
    ]) + "\n"


# Shares of the survey's forms, in files (shell dominates real repositories).
REPO_MIX = [("shell", 0.35), ("config", 0.20), ("k8s", 0.20), ("compose", 0.15), ("dockerfile", 0.10)]


def repository(root: str, n_files: int = 1000, seed: int = 0) -> dict[str, list[str]]:
    """Write a repository of ``n_files`` launch files under ``root``.

    Returns the paths by form, so the yamllint/shellcheck comparisons can be
    given exactly the files of their kind.
    """
    rng = random.Random(seed * 7919 + n_files)
    by_form: dict[str, list[str]] = {k: [] for k, _ in REPO_MIX}
    kinds = [k for k, _ in REPO_MIX]
    weights = [w for _, w in REPO_MIX]
    for n in range(n_files):
        kind = rng.choices(kinds, weights)[0]
        bad = rng.random() < BAD_RATE * 4  # small files: about one in five has a finding
        sub = os.path.join(root, f"team-{n % 10}", kind)
        os.makedirs(sub, exist_ok=True)
        if kind == "shell":
            path, text = os.path.join(sub, f"serve-{n}.sh"), shell_script(rng.randint(20, 120), seed + n, marked=False).text
        elif kind == "config":
            path, text = os.path.join(sub, f"config-{n}.yaml"), _vllm_config(rng, n, bad)
        elif kind == "k8s":
            path, text = os.path.join(sub, f"deploy-{n}.yaml"), k8s_multidoc(rng.randint(40, 200), seed + n, marked=False).text
        elif kind == "compose":
            path, text = os.path.join(sub, f"compose-{n}.yaml"), _compose(rng, n, bad)
        else:
            path, text = os.path.join(sub, f"Dockerfile.{n}"), _dockerfile(rng, n, bad)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        by_form[kind].append(path)
    return by_form


# -- edits ---------------------------------------------------------------------

@dataclass
class Generated:
    text: str
    kind: str          # "shell" or "yaml"
    marker: str        # a word in the middle of the file that edits target

    @property
    def lines(self) -> int:
        return self.text.count("\n")


def toggle_edits(text: str, marker: str, n: int) -> list[tuple[int, int, str]]:
    """``n`` single-character edits inside ``marker`` (once, mid-file):
    type a letter into the flag, then delete it, and so on.

    Every such keystroke changes the unknown-flag diagnostic (its range and
    message), so a push server must publish after each one; that is what
    makes "didChange → matching publishDiagnostics" measurable per keystroke.
    Edits are (offset, chars deleted, inserted text) on the then-current text.
    """
    hits = _occurrences(text, marker)
    at = hits[0] + len(marker) - len("-len")
    letters = "abcdefghij"
    out = []
    for k in range(n):
        out.append((at, 0, letters[(k // 2) % len(letters)]) if k % 2 == 0 else (at, 1, ""))
    return out


def typing_edits(text: str, marker: str, n: int, kind: str) -> list[tuple[int, int, str]]:
    """``n`` single-character edits at the end of the ``marker`` line: type a
    new flag one key at a time, then backspace it, repeatedly.  Most of these
    keystrokes leave the diagnostics as they were, so a push server stays
    silent (pull clients still ask after each)."""
    hits = _occurrences(text, marker)
    start = text.index("\n", hits[0])
    if text[start - 1] == "\\":  # keep the shell continuation last
        start -= 2
    phrase = " --max-num-seqs 64" if kind == "shell" else "\n            - --max-num-seqs=64"
    out = []
    pos = 0
    for _ in range(n):
        cycle = len(phrase) * 2
        step = pos % cycle
        if step < len(phrase):
            out.append((start + step, 0, phrase[step]))
        else:
            typed = cycle - step  # characters still typed
            out.append((start + typed - 1, 1, ""))
        pos += 1
    return out


def _occurrences(text: str, word: str) -> list[int]:
    hits, i = [], text.find(word)
    while i >= 0:
        hits.append(i)
        i = text.find(word, i + 1)
    if len(hits) != 1:
        raise ValueError(f"{word!r} should occur once in the generated text, not {len(hits)} times")
    return hits


def apply(text: str, edit: tuple[int, int, str]) -> str:
    at, dele, ins = edit
    return text[:at] + ins + text[at + dele:]


# -- time-to-verdict cases ------------------------------------------------------

@dataclass
class VerdictCase:
    name: str
    version: str
    argv: list[str]    # what follows `vllm serve`, with the oracle's bundled model name

    def servelint_argv(self) -> list[str]:
        return [HF_OF.get(self.argv[0], self.argv[0])] + self.argv[1:]

    def shell_text(self) -> str:
        import shlex

        return (f"# servelint: vllm={self.version}\n"
                "vllm serve " + " ".join(shlex.quote(a) for a in self.servelint_argv()) + "\n")


NGRAM3 = '{"method":"ngram","num_speculative_tokens":3}'
VERDICT_CASES = [
    # The two seed records.
    VerdictCase("seed: mamba2 --use-replayssm", "0.28.0", ["mamba2", "--use-replayssm"]),
    VerdictCase("seed: nemotronh replayssm + ngram", "0.28.0",
                ["nemotronh", "--use-replayssm", "--speculative-config", NGRAM3]),
    VerdictCase("llama --use-replayssm", "0.28.0", ["llama", "--use-replayssm"]),
    VerdictCase("nemotronh --use-replayssm", "0.33.0", ["nemotronh", "--use-replayssm"]),
    VerdictCase("unknown flag", "0.33.0", ["llama", "--max-modl-len", "8192"]),
    VerdictCase("gpu-mem 95", "0.33.0", ["qwen3", "--gpu-memory-utilization", "95"]),
    VerdictCase("clean llama", "0.33.0", ["llama", "--max-model-len", "8192", "--enable-prefix-caching"]),
    VerdictCase("mixtral -tp 2", "0.33.0", ["mixtral", "-tp", "2", "--dtype", "bfloat16"]),
]
QUICK_VERDICT_CASES = VERDICT_CASES[:2]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("shell"); s.add_argument("lines", type=int); s.add_argument("--seed", type=int, default=0)
    k = sub.add_parser("k8s"); k.add_argument("lines", type=int); k.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("repo"); r.add_argument("out"); r.add_argument("--files", type=int, default=1000)
    r.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.what == "shell":
        print(shell_script(a.lines, a.seed).text, end="")
    elif a.what == "k8s":
        print(k8s_multidoc(a.lines, a.seed).text, end="")
    else:
        by = repository(a.out, a.files, a.seed)
        print(json.dumps({k: len(v) for k, v in by.items()}))


if __name__ == "__main__":
    main()
