"""Find vLLM's server launch in an argv.

Shared by every form: the shell parser hands over each command's words, the
YAML parsers a container's ``command`` + ``args``, the Dockerfile parser an
exec-form ``ENTRYPOINT`` + ``CMD``.  The words are already unquoted and mapped
to the document; this module only decides *which* words are vLLM's.

A script the argv runs (``sh -c SCRIPT``, ``eval``, ``tmux send-keys``) is
read by the ``parse_script`` the caller hands in (the shell parser, which
itself calls this module; ``parse.launches`` binds the two together).

An argv is read left to right: wrappers that run another program (``nohup``,
``srun``, ``uv run``, ``docker run IMAGE``, ``bash -c SCRIPT``...) are peeled
off, each skipping its own options, until the rest is ``vllm serve ...``,
``python -m vllm.entrypoints.openai.api_server ...`` or an image whose
entrypoint is ``vllm serve``.  Anything else is not a launch.

Knowing which wrapper options take a value matters: ``docker run -e X=1 -p
8000:8000 IMAGE`` must find ``IMAGE``, not ``8000:8000``.  For options not in
the tables the value is guessed: the next word is the option's value unless it
looks like an option or a program.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..structs import dataclass
from ..model import Entry, Env, EnvVar, Form, Launch, ParseProblem, Word
from ..text import Span
from . import deployment_argv, problems
from .words import assignment, basename, cover, join_words, subword

API_SERVER_MODULE = "vllm.entrypoints.openai.api_server"
DEMO_SERVER_MODULE = "vllm.entrypoints.api_server"
# ``python -m vllm.entrypoints.cli.main serve`` is what the ``vllm`` script runs.
CLI_MODULE = "vllm.entrypoints.cli.main"

_VLLM_OPENAI_IMAGE = re.compile(r"(?:^|/)vllm/vllm-openai[\w.-]*(?:[:@]|$)")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)*)?(?:\.exe)?$")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def is_vllm_openai_image(image: str) -> bool:
    """Images whose entrypoint is ``vllm serve`` (upstream ``vllm/vllm-openai*``)."""
    return bool(_VLLM_OPENAI_IMAGE.search(image.strip()))


def could_start_launch(name: str) -> bool:
    """Whether a command named ``name`` may launch vLLM (a fast pre-filter)."""
    base = basename(name)
    return (
        base in _WRAPPERS
        or base == "vllm"
        or bool(_PYTHON.match(base))
        or assignment(name) is not None
    )


# -- the public entry points ---------------------------------------------------


def find_launch(
    words: list[Word],
    *,
    form: Form,
    env: dict[str, EnvVar] | None = None,
    image: str | None = None,
    image_entrypoint: bool = False,
    image_span: Span | None = None,
    expand: str = "shell",
    parse_script: "ParseScript | None" = None,
) -> Launch | None:
    """The vLLM launch started by ``words`` (an argv), or None.

    ``env``: the environment visible to the command (exported variables, a
    container's ``env:``).  ``image``: the container image the argv runs in,
    if any.  ``image_entrypoint``: the words are arguments to the image's own
    entrypoint (k8s ``args:`` without ``command:``); the launch is then
    ``Entry.IMAGE`` unless the image is known not to be vLLM's.
    ``image_span``: where the image is named (the entry span of such a launch).
    ``expand``: the variable language applied before a shell runs a script
    found in the argv (``sh -c SCRIPT``); see ``shell.parse_shell``.
    ``parse_script``: reads such a script (``shell.parse_shell``); without
    it, launches inside scripts are not found.

    A script run by ``sh -c`` may hold several launches; ``find_launches``
    returns all of them.
    """
    found = find_launches(
        words,
        form=form,
        env=env,
        image=image,
        image_entrypoint=image_entrypoint,
        image_span=image_span,
        expand=expand,
        parse_script=parse_script,
    )
    return found[0] if found else None


def find_launches(
    words: list[Word],
    *,
    form: Form,
    env: dict[str, EnvVar] | None = None,
    image: str | None = None,
    image_entrypoint: bool = False,
    image_span: Span | None = None,
    expand: str = "shell",
    parse_script: "ParseScript | None" = None,
) -> list[Launch]:
    """Every vLLM launch started by ``words`` (see ``find_launch``)."""
    ctx = _Ctx(form=form, expand=expand, words=words, image=image, parse_script=parse_script)
    # Changes here (``env X=1``, ``env -u X``) stay here; a shared
    # environment (a script's exported variables) is not copied.
    env = Env.over(env)
    if image_entrypoint:
        if image is not None and not _may_be_vllm_image(image):
            return []
        span = image_span or (words[0].span if words else Span(0, 0))
        return [_image_launch(ctx, words, 0, span, env, image)]
    return _scan(ctx, 0, env)


def config_refs(launch: Launch) -> list[Word]:
    """The path words of ``--config PATH`` in a launch's args."""
    out = []
    args = launch.args
    for k, w in enumerate(args):
        if w.text == "--":
            break
        if w.text == "--config" and k + 1 < len(args):
            out.append(args[k + 1])
    return out


# -- scanning ------------------------------------------------------------------


# (script text, offsets=..., form=..., env=..., expand=...) → what the shell
# parser returns: an object with the ``launches`` it found.
ParseScript = Callable[..., "object"]


@dataclass(slots=True)
class _Ctx:
    form: Form
    expand: str
    words: list[Word]
    image: str | None = None
    image_span: Span | None = None
    # The first word of the outermost argv: a launch spans its wrappers too.
    start: Span | None = None
    parse_script: ParseScript | None = None
    # Where the launch runs, from a wrapper's options (``docker run --gpus``,
    # ``srun --gres``): ``parse.deployment``.
    deployment: Any = None


def _scan(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch]:
    """Peel wrappers from ``ctx.words[i:]`` until a launch or a dead end."""
    words = ctx.words
    while i < len(words):
        w = words[i]
        name = assignment(w.text)
        if name is not None:  # ``VAR=x cmd`` written as an argv word
            env[name] = _env_from_word(w, name)
            i += 1
            continue
        prog = basename(w.text)
        if not w.exact and "$" in prog:
            # The program is a variable the file does not resolve: what
            # follows may still show what it is.
            return _unknown_program(ctx, i, env)
        if prog == "vllm":
            return _vllm(ctx, i, env)
        if _PYTHON.match(prog):
            return _python(ctx, i, env)
        handler = _WRAPPERS.get(prog)
        if handler is None:
            return []
        nxt = handler(ctx, i, env)
        if isinstance(nxt, list):
            return nxt
        if nxt is None or nxt <= i:
            return []
        i = nxt
    return []


# A variable that holds a container engine (``$DOCKER``, ``"$ENGINE"``,
# ``${CONTAINER_RUNTIME}``): its ``run`` is ``docker run``.
_ENGINE_NAME = re.compile(r"DOCKER|PODMAN|NERDCTL|ENGINE|CONTAINER|RUNTIME|\bCTR\b|OCI", re.I)


def _unknown_program(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch]:
    """``$PYTHON -m vllm...``, ``$VLLM serve``, ``"$ENGINE" run IMAGE``: a
    program held in a variable the file does not set, known by what follows.

    ``"$VENV/bin/python"`` never gets here: its name (``python``) is written.
    Only shapes that say what runs count: the api_server module after
    Python's options, ``serve`` after a variable named like vLLM, ``run``
    after a variable named like a container engine.
    """
    words = ctx.words
    written = words[i].text
    nxt = words[i + 1].text if i + 1 < len(words) else ""
    if nxt.startswith("-"):
        got = _python(ctx, i, env)
        if got:
            return got
    if nxt == "serve" and "vllm" in written.lower():
        return _vllm(ctx, i, env)
    if nxt in ("run", "container") and _ENGINE_NAME.search(written):
        return _docker(ctx, i, env) or []
    return []


def _vllm(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch]:
    words = ctx.words
    if i + 1 < len(words) and words[i + 1].text == "serve":
        span = cover(words[i].span, words[i + 1].span)
        return [_make(ctx, Entry.SERVE, span, words[i + 2 :], env)]
    return []


_PY_VALUE_OPTS = frozenset({"-W", "-X", "--check-hash-based-pycs"})


def _python(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch]:
    """``python [opts] -m MODULE args``: only vLLM's server modules count."""
    words = ctx.words
    k = i + 1
    while k < len(words):
        t = words[k].text
        if t in _PY_VALUE_OPTS:
            k += 2
            continue
        if t[:2] in _PY_VALUE_OPTS:  # ``-Wignore``: value attached
            k += 1
            continue
        if t.startswith("-") and not t.startswith("--") and len(t) > 1:
            # ``-m`` may close a cluster (``-um``) or carry the module (``-mvllm...``).
            m = t.find("m")
            if "c" in t[1:m if m > 0 else None]:
                return []  # ``-c CODE``
            if m > 0:
                if m + 1 < len(t):
                    return _module(ctx, i, words[k], subword(words[k], m + 1), k + 1, env)
                if k + 1 < len(words):
                    return _module(ctx, i, words[k + 1], words[k + 1], k + 2, env)
                return []
            k += 1
            continue
        if t.startswith("--"):
            k += 1
            continue
        return []  # a script path: we cannot see inside it
    return []


def _module(
    ctx: _Ctx, i: int, last: Word, module: Word, rest: int, env: dict[str, EnvVar]
) -> list[Launch]:
    words = ctx.words
    span = words[i].span.cover(last.span)
    if module.text == API_SERVER_MODULE:
        return [_make(ctx, Entry.API_SERVER, span, words[rest:], env)]
    if module.text == DEMO_SERVER_MODULE:
        return [_make(ctx, Entry.DEMO_SERVER, span, words[rest:], env)]
    if module.text == CLI_MODULE and rest < len(words) and words[rest].text == "serve":
        span = span.cover(words[rest].span)
        return [_make(ctx, Entry.SERVE, span, words[rest + 1 :], env)]
    return []


# -- wrappers ------------------------------------------------------------------
#
# Each takes the index of its own name and returns the index of the program it
# runs (scanning goes on from there), a finished list of launches, or None.


def _skip_options(
    words: list[Word],
    i: int,
    takes_value: frozenset[str] = frozenset(),
    no_value: frozenset[str] = frozenset(),
    on_option=None,
) -> int:
    """Index of the first word after the options starting at ``words[i]``.

    ``on_option(opt, value_word_or_None)`` sees each option with its value.
    """
    n = len(words)
    while i < n:
        t = words[i].text
        if t == "--":
            return i + 1
        if not t.startswith("-") or t == "-":
            return i
        value: Word | None = None
        step = 1
        if t.startswith("--") and "=" in t:
            name = t[: t.index("=")]
            value = subword(words[i], len(name) + 1)
        elif t in takes_value:
            name = t
            value = words[i + 1] if i + 1 < n else None
            step = 2
        elif t in no_value:
            name = t
        elif not t.startswith("--") and len(t) > 2:
            name, value, step = _short_cluster(words, i, takes_value)
        else:
            name = t
            nxt = words[i + 1].text if i + 1 < n else ""
            if nxt and not nxt.startswith("-") and not _looks_like_program(nxt):
                value = words[i + 1]
                step = 2
        if on_option is not None:
            on_option(name, value)
        i += step
    return i


def _short_cluster(words: list[Word], i: int, takes_value: frozenset[str]):
    """``-itd`` (flags), ``-n4`` / ``-e=X`` (attached value), ``-ie X``."""
    t = words[i].text
    if t[:2] in takes_value:
        rest = 3 if t[2:3] == "=" else 2
        return t[:2], subword(words[i], rest), 1
    if "-" + t[-1] in takes_value:
        value = words[i + 1] if i + 1 < len(words) else None
        return "-" + t[-1], value, 2
    return t, None, 1


def _looks_like_program(text: str) -> bool:
    base = basename(text)
    return (
        base in _WRAPPERS
        or base == "vllm"
        or bool(_PYTHON.match(base))
        or "vllm" in text
    )


def _plain(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int:
    """``nohup cmd``: no options of interest."""
    return _skip_options(ctx.words, i + 1)


def _options(takes_value: set[str], no_value: set[str] = frozenset()):
    tv, nv = frozenset(takes_value), frozenset(no_value)

    def handler(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int:
        return _skip_options(ctx.words, i + 1, tv, nv)

    return handler


def _then_positional(takes_value: set[str], no_value: set[str] = frozenset()):
    """Wrappers with one positional before the program (``timeout 1h cmd``)."""
    tv, nv = frozenset(takes_value), frozenset(no_value)

    def handler(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int | None:
        k = _skip_options(ctx.words, i + 1, tv, nv)
        return k + 1 if k < len(ctx.words) else None

    return handler


def _subcommand(sub: set[str], takes_value: set[str], no_value: set[str] = frozenset()):
    """``uv run cmd``, ``conda run -n X cmd``: a subcommand, then options."""
    tv, nv = frozenset(takes_value), frozenset(no_value)

    def handler(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int | None:
        words = ctx.words
        k = _skip_options(words, i + 1, frozenset({"--project", "--directory"}))
        if k >= len(words) or words[k].text not in sub:
            return None
        return _skip_options(words, k + 1, tv, nv)

    return handler


def _env(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int:
    """``env [-i] [-u NAME] NAME=value... cmd``."""

    def opt(name: str, value: Word | None) -> None:
        if name in ("-i", "--ignore-environment"):
            env.clear()
        elif name in ("-u", "--unset") and value is not None:
            env.pop(value.text, None)

    return _skip_options(
        ctx.words,
        i + 1,
        frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
        frozenset({"-i", "--ignore-environment", "-0", "--null", "-v", "--debug"}),
        opt,
    )


def _uv(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int | list[Launch] | None:
    """``uv run [opts] cmd`` (``uv run -m MODULE`` runs python)."""
    words = ctx.words
    k = _skip_options(words, i + 1, frozenset({"--project", "--directory", "--config-file"}))
    if k >= len(words) or words[k].text != "run":
        return None
    module: list[str] = []

    def opt(name: str, value: Word | None) -> None:
        if name in ("-m", "--module"):
            module.append(name)

    k = _skip_options(words, k + 1, _UV_RUN_VALUE, _UV_RUN_FLAGS | {"-m", "--module"}, opt)
    if module:
        # ``-m`` was read as a flag so the module is the next positional.
        mod = words[k] if k < len(words) else None
        if mod is None:
            return []
        return _module(ctx, i, mod, mod, k + 1, env)
    return k


_UV_RUN_VALUE = frozenset(
    {
        "--with", "--with-editable", "--with-requirements", "--python", "-p",
        "--package", "--extra", "--group", "--only-group", "--no-group",
        "--env-file", "--index", "--index-url", "--default-index",
        "--extra-index-url", "--find-links", "-f", "--upgrade-package", "-P",
        "--reinstall-package", "--refresh-package", "--cache-dir",
        "--prerelease", "--resolution", "--exclude-newer", "--index-strategy",
        "--keyring-provider", "--link-mode", "--config-setting", "-C",
        "--python-platform", "--color", "--directory", "--project",
    }
)
_UV_RUN_FLAGS = frozenset(
    {
        "--no-sync", "--frozen", "--locked", "--isolated", "--active",
        "--no-project", "--no-dev", "--all-extras", "--all-packages",
        "--no-editable", "--offline", "-q", "--quiet", "-v", "--verbose",
        "--no-cache", "-n", "--script", "-s", "--gui-script", "--refresh",
        "--reinstall", "--upgrade", "-U", "--no-env-file", "--exact",
        "--all-groups", "--no-default-groups", "--compile-bytecode",
    }
)


def _docker(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``docker [global opts] run|container run|exec ...``."""
    words = ctx.words
    k = _skip_options(words, i + 1, _DOCKER_GLOBAL_VALUE)
    if k < len(words) and words[k].text == "container":
        k += 1
    if k >= len(words):
        return None
    sub = words[k].text
    if sub in ("run", "create"):
        return _docker_run(ctx, k + 1, env)
    if sub == "exec":
        return _docker_exec(ctx, k + 1, env)
    return None


_DOCKER_GLOBAL_VALUE = frozenset(
    {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level",
     "--tlscacert", "--tlscert", "--tlskey"}
)


def _docker_run(ctx: _Ctx, k: int, host_env: dict[str, EnvVar]) -> list[Launch]:
    words = ctx.words
    # A container sees only what docker passes: ``-e``/``--env``/``--env-file``.
    env: dict[str, EnvVar] = {}
    entrypoint: list[Word] = []
    seen: list[tuple[str, Word | None]] = []

    def opt(name: str, value: Word | None) -> None:
        seen.append((name, value))
        if value is None:
            return
        if name in ("-e", "--env"):
            key = assignment(value.text)
            if key is not None:
                env[key] = _env_from_word(value, key)
            else:  # ``-e NAME`` passes the host's value through
                host = host_env.get(value.text)
                env[value.text] = (
                    EnvVar(value.text, host.value, value.span, host.exact)
                    if host is not None
                    else EnvVar(value.text, None, value.span, False)
                )
        elif name == "--entrypoint":
            entrypoint.append(value)

    run = words[k - 1]
    k = _skip_options(words, k, _DOCKER_RUN_VALUE, _DOCKER_RUN_FLAGS, opt)
    if k >= len(words):
        return []
    program = next((basename(w.text) for w in reversed(words[: words.index(run)])
                    if basename(w.text) in _WRAPPERS and _WRAPPERS[basename(w.text)] is _docker), "docker")
    ctx.deployment = deployment_argv.of_docker_run(run, seen, program)
    image_word = words[k]
    ctx.image = image_word.text
    ctx.image_span = image_word.span
    rest = k + 1
    if not image_word.exact and not repository_written(image_word.text) and not entrypoint:
        return _unknown_image(ctx, words, rest, image_word, env)
    if entrypoint:
        ep = entrypoint[-1]
        if ep.text == "":
            return _scan(_sub_ctx(ctx, words[rest:]), 0, env)
        return _scan(_sub_ctx(ctx, [ep] + words[rest:]), 0, env)
    if is_vllm_openai_image(image_word.text) or (
        _may_be_vllm_image(image_word.text)
        and (rest >= len(words) or words[rest].text.startswith("-"))
    ):
        return [_image_launch(ctx, words, rest, image_word.span, env, image_word.text)]
    return _scan(_sub_ctx(ctx, words[rest:]), 0, env)


def repository_written(image: str) -> bool:
    """Whether an image reference names its repository in plain text: only
    its tag (or digest) may hold a variable or a template expression
    (``vllm/vllm-openai:${TAG}``; ``\ue000`` is ``templates.PLACEHOLDER``)."""
    marks = [k for k in (image.find("$"), image.find("\ue000"), image.find("{{")) if k >= 0]
    if not marks:
        return True
    d = min(marks)
    head = image[:d]
    return max(head.rfind(":"), head.rfind("@")) > head.rfind("/")


def _unknown_image(ctx: _Ctx, words: list[Word], rest: int, image_word: Word,
                   env: dict[str, EnvVar]) -> list[Launch]:
    """``docker run ... "$IMAGE" ARGS`` where the file does not set ``$IMAGE``.

    A program after the image (``"$IMAGE" vllm serve m``) says what runs.
    Flags alone go to the image's entrypoint, which is not known: the launch
    is kept (so it is seen) with ``entry_unknown`` saying why, and only when
    the command shows some sign of vLLM (a word naming it: the variable,
    a container name, a cache volume).
    """
    inner = _scan(_sub_ctx(ctx, words[rest:]), 0, env)
    if inner or (rest < len(words) and not words[rest].text.startswith("-")):
        for launch in inner:
            launch.image = None
        return inner
    if not any("vllm" in w.text.lower() for w in ctx.words):
        return []
    launch = _make(ctx, Entry.IMAGE, image_word.span, words[rest:], env, image=None)
    launch.image = None
    why = image_word.note or "its value is not known from this file"
    launch.entry_unknown = (
        f"the image is `{image_word.text}` ({why}), so what it runs is not known"
    )
    return [launch]


def _docker_exec(ctx: _Ctx, k: int, host_env: dict[str, EnvVar]) -> list[Launch]:
    words = ctx.words
    env: dict[str, EnvVar] = {}

    def opt(name: str, value: Word | None) -> None:
        if name in ("-e", "--env") and value is not None:
            key = assignment(value.text)
            if key is not None:
                env[key] = _env_from_word(value, key)

    k = _skip_options(
        words,
        k,
        frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"}),
        frozenset({"-d", "--detach", "-i", "--interactive", "-t", "--tty", "--privileged", "-it", "-ti"}),
        opt,
    )
    if k >= len(words):
        return []
    return _scan(_sub_ctx(ctx, words[k + 1 :]), 0, env)


_DOCKER_RUN_VALUE = frozenset(
    {
        "-a", "--attach", "--add-host", "--annotation", "--blkio-weight",
        "--blkio-weight-device", "--cap-add", "--cap-drop", "--cgroup-parent",
        "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota",
        "--cpu-rt-period", "--cpu-rt-runtime", "-c", "--cpu-shares", "--cpus",
        "--cpuset-cpus", "--cpuset-mems", "--device", "--device-cgroup-rule",
        "--device-read-bps", "--device-read-iops", "--device-write-bps",
        "--device-write-iops", "--dns", "--dns-option", "--dns-search",
        "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose",
        "--gpus", "--group-add", "--health-cmd", "--health-interval",
        "--health-retries", "--health-start-period", "--health-start-interval",
        "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc",
        "--isolation", "--kernel-memory", "-l", "--label", "--label-file",
        "--link", "--link-local-ip", "--log-driver", "--log-opt",
        "--mac-address", "-m", "--memory", "--memory-reservation",
        "--memory-swap", "--memory-swappiness", "--mount", "--name", "--network",
        "--net", "--network-alias", "--net-alias", "--oom-score-adj", "--pid",
        "--pids-limit", "--platform", "-p", "--publish", "--pull", "--restart",
        "--runtime", "--security-opt", "--shm-size", "--stop-signal",
        "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit",
        "-u", "--user", "--userns", "--uts", "-v", "--volume", "--volume-driver",
        "--volumes-from", "-w", "--workdir",
        # podman
        "--pod", "--secret", "--hooks-dir", "--arch", "--os", "--variant",
        "--cgroup-conf", "--cgroups", "--chrootdirs", "--conmon-pidfile",
        "--decryption-key", "--env-merge", "--gidmap", "--uidmap",
        "--hostuser", "--image-volume", "--init-path", "--log-level",
        "--passwd-entry", "--personality", "--preserve-fds", "--requires",
        "--sdnotify", "--seccomp-policy", "--subgidname", "--subuidname",
        "--timeout", "--tz", "--umask", "--unsetenv",
    }
)
_DOCKER_RUN_FLAGS = frozenset(
    {
        "-d", "--detach", "-i", "--interactive", "-t", "--tty", "--rm",
        "--privileged", "--init", "--read-only", "-P", "--publish-all", "-q",
        "--quiet", "--no-healthcheck", "--oom-kill-disable", "--help",
        "--disable-content-trust", "--sig-proxy", "-it", "-ti", "-dit", "-itd",
        "--replace", "--env-host", "--http-proxy", "--no-hosts", "--rmi",
    }
)


def _may_be_vllm_image(image: str) -> bool:
    """A container image that may run vLLM through its entrypoint."""
    return "vllm" in image.lower()


def _apptainer(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``apptainer exec|run [opts] IMAGE ...`` (also singularity)."""
    words = ctx.words
    k = _skip_options(words, i + 1)
    if k >= len(words) or words[k].text not in ("exec", "run"):
        return None
    sub = words[k].text
    inner = dict(env)

    def opt(name: str, value: Word | None) -> None:
        if name in ("-e", "--cleanenv", "-C", "--containall"):
            inner.clear()
        elif name == "--env" and value is not None:
            for part in _split_commas(value):
                key = assignment(part.text)
                if key is not None:
                    inner[key] = _env_from_word(part, key)

    k = _skip_options(words, k + 1, _APPTAINER_VALUE, _APPTAINER_FLAGS, opt)
    if k >= len(words):
        return []
    image_word = words[k]
    ctx.image = image_word.text
    ctx.image_span = image_word.span
    if sub == "run":
        if is_vllm_openai_image(image_word.text):
            return [_image_launch(ctx, words, k + 1, image_word.span, inner, image_word.text)]
        return []
    return _scan(_sub_ctx(ctx, words[k + 1 :]), 0, inner)


_APPTAINER_VALUE = frozenset(
    {
        "-B", "--bind", "--env", "--env-file", "-H", "--home", "-W", "--workdir",
        "--pwd", "-o", "--overlay", "--security", "--network", "--network-args",
        "-S", "--scratch", "--app", "--mount", "--fusemount", "--cpus",
        "--memory", "--hostname", "--dns", "--add-caps", "--drop-caps",
        "--apply-cgroups", "--cpu-shares", "--cpuset-cpus", "--memory-swap",
    }
)
_APPTAINER_FLAGS = frozenset(
    {
        "--nv", "--nvccli", "--rocm", "-e", "--cleanenv", "-C", "--containall",
        "-c", "--contain", "-w", "--writable", "--writable-tmpfs", "-f",
        "--fakeroot", "--no-home", "--compat", "-i", "--ipc", "-p", "--pid",
        "-u", "--userns", "--no-init", "--no-privs", "--no-eval", "--disable-cache",
        "--allow-setuid", "--boot", "--keep-privs", "--no-https", "--oci",
        "--no-mount",
    }
)


def _split_commas(word: Word) -> list[Word]:
    out, start = [], 0
    for k, ch in enumerate(word.text + ","):
        if ch == ",":
            if k > start:
                out.append(subword(word, start, k))
            start = k + 1
    return out


def _shell(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``bash [opts] -c SCRIPT``: the launches in the script."""
    words = ctx.words
    k = i + 1
    has_c = False
    while k < len(words):
        t = words[k].text
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            k += 2
            continue
        if t == "--":
            k += 1
            break
        if (t.startswith("-") or t.startswith("+")) and len(t) > 1:
            if not t.startswith("--") and "c" in t[1:]:
                has_c = True
            k += 1
            continue
        break
    if not has_c or k >= len(words):
        return None
    return _run_script(ctx, [words[k]], env)


def _eval(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``eval ARGS``: the arguments joined with spaces, run as a script."""
    return _run_script(ctx, ctx.words[i + 1 :], env)


def _tmux(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``tmux new-session -d -s x 'cmd'`` and ``tmux send-keys -t x 'cmd' Enter``."""
    words = ctx.words
    k = _skip_options(words, i + 1, frozenset({"-L", "-S", "-f", "-T"}))
    if k >= len(words):
        return None
    sub = words[k].text
    if sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane"):
        k = _skip_options(
            words,
            k + 1,
            frozenset({"-s", "-n", "-c", "-e", "-x", "-y", "-t", "-F", "-f", "-l", "-b"}),
            frozenset({"-d", "-A", "-D", "-E", "-P", "-X", "-h", "-v", "-k", "-a", "-Z", "-I"}),
        )
        return _run_script(ctx, words[k:], env)
    if sub in ("send-keys", "send"):
        k = _skip_options(
            words, k + 1, frozenset({"-t", "-N"}), frozenset({"-l", "-R", "-M", "-X", "-H", "-K", "-F"})
        )
        keys = [w for w in words[k:] if w.text not in _TMUX_KEYS]
        return _run_script(ctx, keys, env)
    return None


_TMUX_KEYS = frozenset({"Enter", "C-m", "KPEnter", "C-j", "C-c"})


def _run_script(ctx: _Ctx, words: list[Word], env: dict[str, EnvVar]) -> list[Launch]:
    if ctx.parse_script is None or not words or not any("vllm" in w.text or "$" in w.text for w in words):
        return []
    script = join_words(words)
    result = ctx.parse_script(
        script.text,
        offsets=script.offsets() or [words[0].span.start],
        form=ctx.form,
        env=env,
        expand="github" if ctx.expand == "github" else "shell",
    )
    launches = result.launches
    for launch in launches:
        if launch.image is None:
            launch.image = ctx.image
        if ctx.deployment is not None:
            launch.deployment = ctx.deployment if launch.deployment is None else launch.deployment.over(ctx.deployment)
    return launches


def _hatch(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> list[Launch] | None:
    """``hatch [-e ENV] run [--] [ENV:]cmd ...`` and ``hatch env run [opts] -- cmd``.

    ``hatch run``'s first argument may name the environment before a colon
    (``hatch run serve:vllm serve m``); the program is what follows it.
    Matrix selectors (``+py=3.12``) may come first.
    """
    words = ctx.words
    k = _skip_options(words, i + 1, _HATCH_ROOT_VALUE, _HATCH_ROOT_FLAGS)
    if k < len(words) and words[k].text == "env":
        k += 1
        if k >= len(words) or words[k].text != "run":
            return None
        k = _skip_options(words, k + 1, frozenset({"-e", "--env", "-i", "--include", "-x", "--exclude",
                                                   "--filter", "-f"}),
                          frozenset({"--force-continue", "--ignore-compat"}))
    elif k < len(words) and words[k].text == "run":
        k += 1
        if k < len(words) and words[k].text == "--":
            k += 1
    else:
        return None
    while k < len(words) and words[k].text[:1] in "+-" and "=" in words[k].text:
        k += 1  # ``+py=3.12`` / ``-version=9000``: matrix selection
    if k >= len(words):
        return None
    first = words[k]
    colon = first.text.find(":")
    if colon > 0 and "/" not in first.text[:colon]:
        first = subword(first, colon + 1)
    return _scan(_sub_ctx(ctx, [first] + words[k + 1 :]), 0, env)


_HATCH_ROOT_VALUE = frozenset({"-e", "--env", "-p", "--project", "--color", "--data-dir",
                               "--cache-dir", "--config"})
_HATCH_ROOT_FLAGS = frozenset({"-v", "--verbose", "-q", "--quiet", "--no-color", "-i",
                               "--interactive", "--no-interactive"})


def _ray(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int | None:
    """``ray job submit [opts] -- cmd``."""
    words = ctx.words
    for k in range(i + 1, len(words)):
        if words[k].text == "--":
            return k + 1
    return None


_SRUN_VALUE, _SRUN_FLAGS = (
    {
        "-A", "-b", "-c", "-C", "-d", "-D", "-e", "-G", "-i", "-J", "-L", "-m",
        "-M", "-n", "-N", "-o", "-p", "-q", "-r", "-S", "-t", "-T", "-w", "-W",
        "-x", "--account", "--nodes", "--ntasks", "--ntasks-per-node",
        "--gpus", "--gpus-per-node", "--gpus-per-task", "--gres",
        "--cpus-per-task", "--cpus-per-gpu", "--mem", "--mem-per-cpu",
        "--mem-per-gpu", "--time", "--partition", "--job-name", "--output",
        "--error", "--input", "--qos", "--container-image",
        "--container-mounts", "--container-name", "--container-workdir",
        "--container-env", "--export", "--mpi", "--nodelist", "--exclude",
        "--jobid", "--cpu-bind", "--distribution", "--chdir", "--constraint",
        "--reservation", "--wait", "--dependency", "--gpu-bind",
        "--ntasks-per-gpu", "--threads-per-core", "--network", "--signal",
        "--time-min", "--mem-bind", "--hint", "--tasks-per-node",
        "--het-group", "--cluster", "--clusters", "--comment", "--begin",
        "--deadline", "--licenses", "--nice", "--priority", "--profile",
        "--slurmd-debug", "--task-epilog", "--task-prolog",
        "--tmp", "--uid", "--gid", "--wckey", "--open-mode",
    },
    {
        "-l", "--label", "-u", "--unbuffered", "-v", "--verbose", "-K", "-k",
        "--no-kill", "-O", "--overcommit", "-Q", "--quiet", "-s",
        "--oversubscribe", "-X", "--disable-status", "-Z", "--no-allocate",
        "-E", "--preserve-env", "--exclusive", "--overlap", "--pty",
        "--container-remap-root", "--no-container-remap-root",
        "--no-container-mount-home", "--container-mount-home",
        "--container-writable", "--container-readonly", "--no-container-entrypoint",
        "-H", "--hold", "-I", "--immediate", "--multi-prog", "--test-only",
        "--kill-on-bad-exit", "--propagate",
    },
)


def _srun(ctx: _Ctx, i: int, env: dict[str, EnvVar]) -> int:
    """``srun [opts] cmd``; pyxis' ``--container-image`` names the image."""

    seen: list[tuple[str, Word | None]] = []

    def opt(name: str, value: Word | None) -> None:
        seen.append((name, value))
        if name == "--container-image" and value is not None:
            ctx.image = value.text
            ctx.image_span = value.span

    k = _skip_options(ctx.words, i + 1, frozenset(_SRUN_VALUE), frozenset(_SRUN_FLAGS), opt)
    got = deployment_argv.of_srun(seen)
    if got is not None:
        ctx.deployment = got
    return k


_WRAPPERS = {
    "nohup": _plain,
    "setsid": _plain,
    "unbuffer": _plain,
    "chronic": _plain,
    "command": _options(set(), {"-p"}),
    "exec": _options({"-a"}, {"-c", "-l"}),
    "time": _options({"-f", "--format", "-o", "--output"}, {"-p", "-v", "-a", "--portability"}),
    "nice": _options({"-n", "--adjustment"}),
    "ionice": _options({"-c", "-n", "-t"}),
    "sudo": _options(
        {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group"},
        {"-E", "-H", "-i", "-s", "-n", "-k", "-b", "-S", "-P", "--preserve-env"},
    ),
    "stdbuf": _options({"-i", "-o", "-e"}),
    "numactl": _options(
        {"-N", "-m", "-C", "-i", "-p", "-P", "--cpunodebind", "--membind",
         "--physcpubind", "--interleave", "--preferred"},
        {"-l", "--localalloc", "-a", "--all"},
    ),
    "taskset": _then_positional(set(), {"-a", "--all-tasks", "-c", "--cpu-list"}),
    "timeout": _then_positional(
        {"-s", "--signal", "-k", "--kill-after"}, {"--foreground", "--preserve-status", "-v", "--verbose"}
    ),
    "srun": _srun,
    "uv": _uv,
    "uvx": _options({"--from", "--with", "--with-editable", "--with-requirements", "--python", "-p",
                     "--index-url", "--extra-index-url", "--index", "-f", "--find-links"}),
    "pipx": _subcommand({"run"}, {"--spec", "--python", "--pip-args", "--index-url"}),
    "conda": _subcommand({"run"}, {"-n", "--name", "-p", "--prefix", "--cwd"},
                         {"--no-capture-output", "--live-stream", "-v", "--debug-wrapper-scripts"}),
    "mamba": _subcommand({"run"}, {"-n", "--name", "-p", "--prefix", "--cwd"},
                         {"--no-capture-output", "--live-stream"}),
    "micromamba": _subcommand({"run"}, {"-n", "--name", "-p", "--prefix", "--cwd", "-a", "--attach"}),
    "pixi": _subcommand({"run", "exec"}, {"-e", "--environment", "--manifest-path", "-s", "--spec"}),
    "poetry": _subcommand({"run"}, {"-C", "--directory", "-P", "--project"}),
    "pipenv": _subcommand({"run"}, set()),
    "pdm": _subcommand({"run"}, {"-p", "--project", "-G", "--group"}),
    "rye": _subcommand({"run"}, {"--pyproject"}),
    "hatch": _hatch,
    "env": _env,
    "apptainer": _apptainer,
    "singularity": _apptainer,
    "docker": _docker,
    "podman": _docker,
    "nerdctl": _docker,
    "nvidia-docker": _docker,
    "bash": _shell,
    "sh": _shell,
    "zsh": _shell,
    "dash": _shell,
    "ksh": _shell,
    "eval": _eval,
    "tmux": _tmux,
    "screen": _options({"-S", "-Logfile", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-X"},
                       {"-d", "-m", "-D", "-L", "-dm", "-md", "-q", "-U", "-A", "-a"}),
    "ray": _ray,
}


# -- building launches -----------------------------------------------------------


def _sub_ctx(ctx: _Ctx, words: list[Word]) -> _Ctx:
    start = ctx.start or (ctx.words[0].span if ctx.words else None)
    return _Ctx(form=ctx.form, expand=ctx.expand, words=words, image=ctx.image,
                image_span=ctx.image_span, start=start, parse_script=ctx.parse_script,
                deployment=ctx.deployment)


def _image_launch(
    ctx: _Ctx,
    words: list[Word],
    rest: int,
    image_span: Span,
    env: dict[str, EnvVar],
    image: str | None,
) -> Launch:
    """A launch through the image's entrypoint (``vllm serve``)."""
    args = words[rest:]
    launch = _make(ctx, Entry.IMAGE, image_span, args, env, image=image)
    repeated: Span | None = None
    if args and args[0].text == "serve":
        repeated = args[0].span
    elif len(args) > 1 and basename(args[0].text) == "vllm" and args[1].text == "serve":
        repeated = args[0].span.cover(args[1].span)
    if repeated is not None:
        launch.problems.append(
            ParseProblem(
                problems.SERVE_REPEATED,
                "the vllm/vllm-openai image already runs `vllm serve`; "
                "vLLM will see `serve` as an extra argument",
                repeated,
                "error",
            )
        )
    return launch


def _make(
    ctx: _Ctx,
    entry: Entry,
    entry_span: Span,
    args: list[Word],
    env: dict[str, EnvVar],
    image: str | None = None,
) -> Launch:
    first = ctx.start or (ctx.words[0].span if ctx.words else entry_span)
    span = cover(first, entry_span)
    if args:
        span = cover(span, args[-1].span)
    launch = Launch(
        form=ctx.form,
        entry=entry,
        entry_span=entry_span,
        args=list(args),
        span=span,
        env=env.snapshot() if isinstance(env, Env) else dict(env),
        image=image if image is not None else ctx.image,
        deployment=ctx.deployment,
    )
    _check_config_equals(launch)
    _check_joined(launch)
    return launch


def _check_config_equals(launch: Launch) -> None:
    for w in launch.args:
        if w.text == "--":
            break
        if w.text.startswith("--config="):
            launch.problems.append(
                ParseProblem(
                    problems.CONFIG_EQUALS_IGNORED,
                    "vLLM reads a config file only from `--config PATH` "
                    "(two words); `--config=PATH` is silently ignored",
                    w.span,
                    "error",
                )
            )


_NEGATIVE_NUMBER = re.compile(r"-\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$")


def joined_parts(text: str) -> list[tuple[int, int]] | None:
    """Where a word that starts like a flag splits into arguments, as
    ``(start, end)`` ranges of ``text``, or None if it is one argument.

    Whitespace inside quotes or brackets (a JSON value) does not split.
    After ``--flag=value`` only another flag starts a new part: a value may
    hold spaces (``--chat-template=...``).  A word that is one part with
    whitespace after it gives that one part.
    """
    if len(text) < 2 or text[0] != "-" or _NEGATIVE_NUMBER.match(text):
        return None
    if not any(c.isspace() for c in text):
        return None
    parts: list[tuple[int, int]] = []
    depth, quote, start = 0, "", 0
    for k, c in enumerate(text):
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "{[(":
            depth += 1
        elif c in "}])":
            depth = max(0, depth - 1)
        elif c.isspace() and depth == 0:
            if k > start:
                parts.append((start, k))
            start = k + 1
    if start < len(text):
        parts.append((start, len(text)))
    if not parts or (len(parts) == 1 and parts[0][1] == len(text)):
        return None  # whitespace only inside quotes or brackets
    first = text[parts[0][0] : parts[0][1]]
    if "=" in first and len(parts) > 1:
        # ``--k=v w``: ``w`` belongs to the value unless it is a flag.
        merged = [parts[0]]
        for a, b in parts[1:]:
            if text[a] == "-" and not _NEGATIVE_NUMBER.match(text[a:b]):
                merged.append((a, b))
            else:
                merged[-1] = (merged[-1][0], b)
        parts = merged
        if len(parts) == 1 and text == text.rstrip():
            return None  # a value with spaces in it
    return parts


def received_as(text: str) -> str:
    """The word as vLLM's parser sees it: ``FlexibleArgumentParser.parse_args``
    turns ``_`` into ``-`` between ``--`` and the first ``.`` (or, with
    ``=``, in the key only); vllm/utils/argparse_utils.py, 0.33.0."""
    if not text.startswith("--"):
        return text
    key, eq, value = text.partition("=")
    head, dot, tail = key[2:].partition(".")
    return "--" + head.replace("_", "-") + dot + tail + eq + value


def _check_joined(launch: Launch) -> None:
    for w in launch.args:
        if w.text == "--":
            break
        if w.role:
            continue  # written as YAML keys and values, not as argv
        parts = joined_parts(w.text)
        if parts is None:
            continue
        launch.problems.append(joined_problem(w, parts))


def joined_problem(w: Word, parts: list[tuple[int, int]]) -> ParseProblem:
    """The ``joined-argument`` problem of ``w`` (see ``problems.JOINED_ARGUMENT``)."""
    text = w.text
    texts = [text[a:b] for a, b in parts]
    base = w.span.start
    split = next(k for k, c in enumerate(text) if c.isspace())
    offsets = [w.at(k) for k in range(len(text))]
    in_place = all(offsets[k] < offsets[k + 1] for k in range(len(offsets) - 1))
    # Where each part is written, when it is written in the word itself
    # (not brought in by a variable).
    rel = [{"text": t, "start": w.at(a) - base, "end": w.sub(a, b).end - base} if in_place else {"text": t}
           for t, (a, b) in zip(texts, parts)]
    received = received_as(text)
    if len(texts) == 1:
        kind = "trailing-whitespace"
        message = (f"`{text}` ends in whitespace, which vLLM receives as part of the "
                   f"argument; remove it")
    elif len(texts) == 2 and not texts[1].startswith("-"):
        kind = "flag-and-value"
        message = (f"`{text}` is one argument: vLLM does not read it as the flag `{texts[0]}` "
                   f"with the value `{texts[1]}` but as a positional, and stops with "
                   f"`unrecognized arguments: {received}` (or, before the model, takes it as the "
                   f"model name); write the flag and its value as two arguments")
    elif "=" in texts[0]:
        kind = "several-flags"
        flag, _, value = texts[0].partition("=")
        rest = text[parts[0][0] + len(flag) + 1 : parts[-1][1]]
        message = (f"`{text}` is one argument: vLLM gives `{flag}` the value `{rest}` "
                   f"(and may accept it silently), and never reads `{texts[1]}` as a flag; "
                   f"write each as its own argument")
    else:
        kind = "several-flags"
        message = (f"`{text}` is one argument holding {len(texts)} words: vLLM does not split it, "
                   f"and stops with `unrecognized arguments: {received}`; write each as its own "
                   f"argument")
    return ParseProblem(
        problems.JOINED_ARGUMENT, message, w.span, "error",
        {"kind": kind, "parts": rel, "in_place": in_place, "received": received,
         **({"split_at": w.at(split) - base} if in_place else {})},
    )


def _env_from_word(word: Word, name: str) -> EnvVar:
    value = subword(word, len(name) + 1)
    return EnvVar(name, value.text if word.exact else None, word.span, word.exact)


__all__ = [
    "find_launch",
    "find_launches",
    "config_refs",
    "could_start_launch",
    "is_vllm_openai_image",
    "repository_written",
    "API_SERVER_MODULE",
]
