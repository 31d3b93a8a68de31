"""Where a launch runs, as a command's options and a batch script's header
write it: ``docker run``/``podman run`` (``of_docker_run``), ``srun``
(``of_srun``) and ``#SBATCH`` lines (``sbatch_header``, ``link_sbatch``),
and the value readers the YAML forms share (``deployment``).

Kept apart from the YAML forms' readers so that a shell script is read
without loading the YAML library.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..model import Deployment, EnvVar, Fact, GpuRequest, Launch, Port, Word
from ..text import Span

_DOCKER_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.strip().strip('"').strip("'")
    # ASCII only: str.isdigit() also takes "❻" or "²", which int() refuses
    # (and Docker and Slurm read ASCII digits).
    return int(text) if text.isascii() and text.isdigit() else None


def docker_bytes(text: str) -> int | None:
    """Bytes of a Docker size ("16g", "1gb", "512m", "2048"), or None."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)b?\s*", text.lower())
    if not m:
        return None
    return int(float(m.group(1)) * _DOCKER_UNITS[m.group(2)])


def _word_fact(word: Word | None, value, said: str, note: str | None = None) -> Fact | None:
    if word is None:
        return None
    if not word.exact:
        return Fact(None, word.span, said, word.note or "not known from the file")
    return Fact(value, word.span, said,
                None if value is not None else note or f"{said} is not a value servelint can read")


def _visible_count(var: EnvVar) -> int | None:
    if var.value is None or not var.exact:
        return None
    value = var.value.strip()
    if not value or value.lower() in ("all", "none", "void") or "$" in value:
        return None
    return len([p for p in value.split(",") if p.strip()])


# -- docker run and Slurm ----------------------------------------------------------------


def _container_side(text: str) -> int | None:
    """The container port of a ``ports:`` entry ("8080:8000", "127.0.0.1:80:8000/tcp", "8000")."""
    body = text.strip().split("/", 1)[0]
    last = body.rsplit(":", 1)[-1]
    return _int(last) if "-" not in last else None


# -- docker run / podman run -----------------------------------------------------------


def of_docker_run(run: Word, options: list[tuple[str, Word | None]], program: str = "docker") -> Deployment:
    """``docker run``'s deployment facts from its options (name, value word)."""
    gpus: tuple[GpuRequest, ...] = ()
    shm: Fact | None = None
    ports: list[Port] = []
    runtime_nvidia = False
    host_network = False
    visible: Word | None = None
    for name, value in options:
        if value is None:
            continue
        text = value.text
        if name == "--gpus":
            note = "all the host's GPUs" if text.strip("\"'") == "all" else None
            gpus = (GpuRequest(_word_fact(value, _docker_gpus(text), f"`--gpus {text}`", note), vendor="nvidia"),)
        elif name == "--device" and text.startswith("nvidia.com/gpu="):
            n = None if text.endswith("=all") else len(text.split("=", 1)[1].split(","))
            gpus = (GpuRequest(_word_fact(value, n, "`--device nvidia.com/gpu`"), vendor="nvidia"),)
        elif name == "--runtime":
            runtime_nvidia = text == "nvidia"
        elif name in ("-e", "--env") and text.startswith("NVIDIA_VISIBLE_DEVICES="):
            visible = value
        elif name == "--ipc":
            shm = _word_fact(value, "host", "`--ipc=host`") if text == "host" else None
        elif name == "--shm-size" and not (shm is not None and shm.value == "host"):
            shm = _word_fact(value, docker_bytes(text), f"`--shm-size {text}`")
        elif name in ("-p", "--publish"):
            n = _container_side(text) if value.exact else None
            ports.append(Port(n, value.span, f"`-p {text}`", "publish"))
        elif name in ("--network", "--net") and text == "host":
            host_network = True
    if not gpus and runtime_nvidia and visible is not None:
        count = _visible_count(EnvVar("NVIDIA_VISIBLE_DEVICES", visible.text.split("=", 1)[1], visible.span,
                                      visible.exact))
        gpus = (GpuRequest(Fact(count, visible.span, "`NVIDIA_VISIBLE_DEVICES`"), vendor="nvidia"),)
    return Deployment(runtime="container", gpus=gpus, shm=shm, ports=() if host_network else tuple(ports),
                      span=run.span, said=f"`{program} run`")


def _docker_gpus(text: str) -> int | None:
    """How many GPUs ``--gpus`` gives: "2", "count=2", "device=0,1" (quoted
    or not); None for "all"."""
    t = text.strip().strip('"').strip("'")
    if t.isascii() and t.isdigit():
        return int(t)
    for part in re.split(r",(?=\w+=)", t):
        key, _, val = part.partition("=")
        val = val.strip('"').strip("'")
        if key == "count" and val.isascii() and val.isdigit():
            return int(val)
        if key == "device":
            return len([d for d in val.split(",") if d])
    return None


# -- Slurm ------------------------------------------------------------------------------


def _gres_gpus(text: str) -> tuple[str | None, int | None] | None:
    """(type, count) of a gres or gpus spec: "gpu:a100:4", "gpu:4", "a100:4", "4"."""
    for item in text.split(","):
        parts = item.strip().split(":")
        if parts and parts[0] == "gpu":
            parts = parts[1:]
        elif len(parts) > 1 and not parts[-1].isdigit():
            continue
        if not parts:
            return None, 1
        count = _int(parts[-1].split("(", 1)[0])
        kind = parts[0] if len(parts) >= 2 else (None if count is not None else parts[0])
        return kind, count if count is not None else (1 if kind else None)
    return None


def _slurm(options: list[tuple[str, "Word | str | None", Span]], said_prefix: str) -> Deployment | None:
    """Slurm options (name, value, span of the value) → deployment facts."""
    gpus: tuple[GpuRequest, ...] = ()
    nodes: Fact | None = None
    total_gpus = None
    for name, value, span in options:
        text = value.text if isinstance(value, Word) else value
        if text is None:
            continue
        exact = not isinstance(value, Word) or value.exact
        if name in ("--gres", "--gpus-per-node", "--gpus", "-G"):
            got = _gres_gpus(text) if exact else None
            if got is None and exact:
                continue
            kind, count = got if got is not None else (None, None)
            said = f"`{said_prefix}{name}={text}`" if name.startswith("--") else f"`{said_prefix}{name} {text}`"
            req = GpuRequest(Fact(count, span, said, None if exact else "not known from the file"),
                             Fact(kind, span, said) if kind else None, None, None)
            if name in ("--gpus", "-G"):
                total_gpus = req  # the job's total: one node's only when it runs on one
            else:
                gpus = (req,)
        elif name in ("--nodes", "-N"):
            n = _int(text.split("-", 1)[0]) if exact else None
            nodes = Fact(n, span, f"`{said_prefix}{name}={text}`" if name.startswith("--") else f"`{said_prefix}{name} {text}`")
    if not gpus and total_gpus is not None:
        one_node = nodes is None or nodes.value == 1
        count = total_gpus.count if one_node else Fact(None, total_gpus.count.span, total_gpus.count.said,
                                                        "spread over several nodes")
        gpus = (GpuRequest(count, total_gpus.kind, None, None),)
    if not gpus and nodes is None:
        return None
    return Deployment(runtime="host", gpus=gpus, nodes=nodes)


def of_srun(options: list[tuple[str, Word | None]]) -> Deployment | None:
    """``srun``'s options (pyxis' ``--container-image`` makes it a container
    whose /dev/shm servelint does not know)."""
    got = _slurm([(n, v, v.span) for n, v in options if v is not None], "srun ")
    image = any(n == "--container-image" for n, _ in options)
    if got is None:
        return None
    return Deployment(runtime="unknown" if image else "host", gpus=got.gpus, nodes=got.nodes)


_SBATCH = re.compile(r"#SBATCH[ \t]+(.*)")


def sbatch_header(text: str) -> Deployment | None:
    """The ``#SBATCH`` lines of a batch script: sbatch reads them up to the
    first command (a line that is neither blank nor a comment)."""
    options: list[tuple[str, str, Span]] = []
    pos, n = 0, len(text)
    while pos < n:  # only the head: a long script is not scanned on every keystroke
        end = text.find("\n", pos)
        end = n if end < 0 else end + 1
        line = text[pos:end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        m = _SBATCH.match(line.lstrip())
        if m:
            start = pos + (len(line) - len(line.lstrip())) + m.start(1)
            body = m.group(1).split(" #", 1)[0].rstrip()
            for opt in re.finditer(r"(--?[A-Za-z][\w-]*)(?:[= ]+([^\s#]+))?", body):
                options.append((opt.group(1), opt.group(2), Span(start + opt.start(), start + opt.end())))
        pos = end
    return _slurm(options, "#SBATCH ") if options else None


def link_sbatch(launches: Sequence[Launch], text: str) -> None:
    """Set each launch's ``linked`` facts to its job's ``#SBATCH`` lines."""
    header = sbatch_header(text)
    # The same lines as the last parse: the launches keep the very object,
    # so that comparing it is an identity check (a script of many launches
    # is linked on every keystroke).
    before = next((l.linked for l in launches if l.linked is not None), None)
    if before is not None and before == header:
        header = before
    for launch in launches:
        if launch.linked is not header:
            launch.linked = header
