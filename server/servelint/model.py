"""The flag model every launch form is parsed into.

Two layers, in the order the data flows:

* ``Launch`` (built by ``servelint.parse``): one vLLM launch as found in a
  file, release-independent: the entry point, the argv words that follow it
  (each with its exact source span), the environment visible to it, and the
  hints about which vLLM release runs it.
* ``Invocation`` (built by ``servelint.argv`` for one vLLM release): the same
  launch read the way that release's argument parser reads it: ``Flag``
  objects with canonical names and the values vLLM receives.

All spans are offsets into the document text (see ``servelint.text``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from enum import Enum
from operator import attrgetter
from typing import Any, Sequence

from .structs import dataclass, field, fields
from .text import Span


class Form(str, Enum):
    """Where a launch was written."""

    SHELL = "shell"
    VLLM_CONFIG = "vllm-config"  # a YAML file passed with --config
    KUBERNETES = "kubernetes"
    COMPOSE = "compose"
    HELM = "helm"
    SKYPILOT = "skypilot"
    GITHUB_ACTIONS = "github-actions"
    DOCKERFILE = "dockerfile"
    MAKEFILE = "makefile"
    RECORD = "record"  # an exampleFix of an error record


class Entry(str, Enum):
    """How vLLM's server was started."""

    SERVE = "vllm serve"
    API_SERVER = "python -m vllm.entrypoints.openai.api_server"
    # vLLM's old demo server: a flat parser like the api_server's; the
    # module is gone from recent releases (which release says so is
    # knowledge, not parsing).
    DEMO_SERVER = "python -m vllm.entrypoints.api_server"
    # The image's own ENTRYPOINT (``vllm/vllm-openai`` runs ``vllm serve``):
    # the args are what follows the image in docker run / compose / k8s.
    IMAGE = "image entrypoint"
    # A standalone --config YAML, read as the flags it contributes.
    CONFIG_FILE = "config file"


@dataclass(slots=True)
class Word:
    """One argv element, as the program will receive it.

    ``text`` is the value after the form's own quoting and expansion rules
    (shell quotes removed, ``${VAR:-default}`` replaced by its default, a YAML
    scalar's value...).  ``span`` covers the word as written, quotes included.

    Each character of ``text`` maps back to the document: ``offsets[i]`` is
    the document offset of ``text[i]`` and ``offsets[len(text)]`` the offset
    just after the last character.  When ``offsets`` is None the word is a
    verbatim slice and ``text[i]`` sits at ``base + i``.

    ``exact`` is False when the value is not fully known from the file (an
    unset variable, a command substitution, a value assembled at run time);
    ``note`` says why, and rules must not reason about such a value.
    """

    text: str
    span: Span
    base: int = -1
    offsets: Sequence[int] | None = None
    exact: bool = True
    note: str | None = None
    # "config-key" / "config-value" for words synthesised from a --config
    # YAML mapping; "" for words written as argv.
    role: str = ""
    # For a word synthesised from a structured YAML value (a --config mapping
    # or list), the parsed value with its spans; see ``servelint.parse.yamlnodes``.
    node: Any = None
    # The file the word is written in, when it is not the document being
    # linted (the flags of a --config file merged into a launch).
    path: str | None = None

    def __post_init__(self) -> None:
        if self.base < 0 and self.offsets is None:
            self.base = self.span.start

    def at(self, i: int) -> int:
        """Document offset of ``text[i]`` (``i == len(text)`` gives the end)."""
        if self.offsets is not None:
            if not self.offsets:
                return self.span.start
            i = max(0, min(i, len(self.offsets) - 1))
            return self.offsets[i]
        return self.base + max(0, min(i, len(self.text)))

    def sub(self, i: int, j: int) -> Span:
        """Document span of ``text[i:j]``.

        Producers keep ``offsets`` non-decreasing, with ``offsets[k+1]`` the
        end of character ``k`` as written (so an escape such as ``\\"`` spans
        both of its characters).
        """
        start = self.at(i)
        return Span(start, max(start, self.at(j)))

    def slice(self, i: int, j: int | None = None) -> "Word":
        """The word made of ``text[i:j]``, still mapped to the document."""
        j = len(self.text) if j is None else j
        offsets = [self.at(k) for k in range(i, j + 1)]
        return Word(
            self.text[i:j],
            Span(offsets[0], max(offsets[0], offsets[-1])),
            offsets=offsets,
            exact=self.exact,
            note=self.note,
            role=self.role,
            path=self.path,
        )

    def __repr__(self) -> str:
        flag = "" if self.exact else " inexact"
        return f"Word({self.text!r} @{self.span.start}-{self.span.end}{flag})"


@dataclass(slots=True)
class EnvVar:
    """An environment variable visible to a launch."""

    name: str
    value: str | None  # None: set, but to a value not known from the file
    span: Span | None  # where it is set
    exact: bool = True


class Env(MutableMapping):
    """An environment (name → ``EnvVar``) made of a few own entries over a shared base.

    A script's launches see mostly the same exported variables: a script
    with thousands of them and thousands of launches would hold millions of
    entries if each launch had its own copy.  Here a launch keeps only what
    differs from an environment shared with its neighbours (its ``VAR=x``
    prefixes, what changed since the shared one was made).  An ``Env`` used
    as a base is never changed again: ``frozen`` ones refuse it.

    It reads like the ``dict`` it stands for (and equals one with the same
    items); code that needs a real ``dict`` calls ``dict(env)``.
    """

    __slots__ = ("_own", "_base", "_hidden", "frozen")

    def __init__(self, own: Mapping | None = None, base: "Mapping | None" = None,
                 hidden: set | None = None) -> None:
        self._own: dict = dict(own) if own else {}
        # Never changed once it is someone's base (a frozen Env or a dict nobody keeps).
        self._base = base if base else None
        # Names of the base removed here (``env -u NAME``).
        self._hidden: set = set(hidden) if hidden and self._base is not None else set()
        self.frozen = False

    @classmethod
    def over(cls, env: "Mapping | None") -> "Env":
        """A changeable environment starting as ``env``, which it never changes."""
        if isinstance(env, Env):
            return cls(base=env) if env.frozen else env.copy()
        return cls(own=env)

    def freeze(self) -> "Env":
        self.frozen = True
        return self

    def snapshot(self) -> "Env | dict":
        """What a launch keeps: a plain ``dict`` when nothing is shared, the
        shared environment itself when nothing was changed over it."""
        base = self._base
        if base is None:
            return dict(self._own)
        if not self._own and not self._hidden and isinstance(base, Env) and base.frozen:
            return base
        return Env(self._own, base, self._hidden).freeze()

    # -- reading ------------------------------------------------------------------

    def __getitem__(self, name: str):
        got = self._own.get(name, _MISSING)
        if got is not _MISSING:
            return got
        if self._base is None or name in self._hidden:
            raise KeyError(name)
        return self._base[name]

    def get(self, name: str, default=None):
        got = self._own.get(name, _MISSING)
        if got is not _MISSING:
            return got
        if self._base is None or name in self._hidden:
            return default
        return self._base.get(name, default)

    def __contains__(self, name: object) -> bool:
        if name in self._own:
            return True
        return self._base is not None and name not in self._hidden and name in self._base

    def __iter__(self) -> Iterator[str]:
        yield from self._own
        if self._base is not None:
            own, hidden = self._own, self._hidden
            for name in self._base:
                if name not in own and name not in hidden:
                    yield name

    def __len__(self) -> int:
        if self._base is None:
            return len(self._own)
        base = self._base
        shadowed = sum(1 for name in self._own if name in base)
        return len(self._own) + len(base) - shadowed - len(self._hidden)

    # -- changing (only before it is shared) ------------------------------------------

    def _check(self) -> None:
        if self.frozen:
            raise TypeError("a frozen Env is shared and cannot change")

    def __setitem__(self, name: str, value) -> None:
        self._check()
        self._own[name] = value
        self._hidden.discard(name)

    def __delitem__(self, name: str) -> None:
        self._check()
        if name in self._own:
            del self._own[name]
            if self._base is not None and name in self._base:
                self._hidden.add(name)
        elif self._base is not None and name not in self._hidden and name in self._base:
            self._hidden.add(name)
        else:
            raise KeyError(name)

    def clear(self) -> None:
        self._check()
        self._own, self._base, self._hidden = {}, None, set()

    def copy(self) -> "Env":
        return Env(self._own, self._base, self._hidden)

    def layers(self) -> "tuple[Mapping, frozenset, Mapping | None]":
        """(own entries, names of the base hidden here, the base): for
        describing each shared base once, not once per launch over it."""
        return self._own, frozenset(self._hidden), self._base

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return len(self) == len(other) and all(
            name in other and other[name] == value for name, value in self.items()
        )

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return (_env_from_dict, (dict(self), self.frozen))

    def __repr__(self) -> str:
        return f"Env({dict(self)!r})"


_MISSING = object()


def _env_from_dict(items: dict, frozen: bool) -> Env:
    env = Env(items)
    env.frozen = frozen
    return env


@dataclass(slots=True)
class ReleaseHint:
    """Text near a launch that names the vLLM release running it."""

    version: str  # "0.28.0"
    span: Span
    kind: str  # "directive" | "image" | "pip" | "comment"
    text: str  # e.g. "vllm/vllm-openai:v0.28.0"


@dataclass(slots=True)
class ParseProblem:
    """Something a parser saw that a user should hear about.

    ``code`` is one of the parse-level rule codes in ``servelint.rules.parse``.
    """

    code: str
    message: str
    span: Span
    severity: str = "error"
    data: dict = field(default_factory=dict)


@dataclass(slots=True)
class Input:
    """A variable a launch reads that its file never sets: whoever runs the
    file gives it (an environment variable, a make or compose variable).

    Its value is unknown (the words made from it are inexact); ``guard`` is
    where the file makes sure it is set, when it does: ``: "${MODEL:?}"``,
    ``[ -z "$MODEL" ] && exit 1``, ``set -u``.
    """

    name: str
    uses: list[Span]  # where the launch reads it
    guard: Span | None = None
    # "required" (the file stops when it is empty or unset), "nounset"
    # (``set -u``: the shell stops when it is unset), or None.
    guard_kind: str | None = None


@dataclass(slots=True)
class ImageBuild:
    """A container image the file builds instead of naming (compose ``build:``).

    What the image runs is in its Dockerfile: ``dockerfile`` (as written,
    relative to ``context``; Docker's default is ``Dockerfile``), itself
    relative to the file that holds the launch.  Reading it is I/O, done by
    the engine (``parse.compose.with_built_image``).
    """

    context: str  # as written: "." or "./serving"
    dockerfile: str | None  # as written; None: the default ``Dockerfile``
    span: Span  # the ``build:`` value
    target: str | None = None  # ``build.target``: the stage built
    # What the service gives the image (its ``command:`` words): the built
    # image's entrypoint receives them, once the Dockerfile shows it.
    command: list[Word] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The Dockerfile's path relative to the launch's file."""
        import posixpath

        name = self.dockerfile or "Dockerfile"
        if posixpath.isabs(name):
            return name
        return posixpath.normpath(posixpath.join(self.context or ".", name))


@dataclass(slots=True)
class Launch:
    """One vLLM launch found in a document, before any release is applied."""

    form: Form
    entry: Entry
    entry_span: Span  # ``vllm serve``, ``python -m ...``, the image name...
    args: list[Word]  # what follows the entry, in order
    span: Span  # the whole command
    # A dict, or an ``Env`` sharing most of its entries with other launches:
    # read it as a mapping, never change it.
    env: "dict[str, EnvVar] | Env" = field(default_factory=dict)
    release_hints: list[ReleaseHint] = field(default_factory=list)
    image: str | None = None  # container image, when known
    # Why what runs ``args`` is not known from the file, or None when it is.
    # Set when the image is a variable the file never sets, when a container
    # form's program is not vLLM's own parser (KServe's huggingfaceserver),
    # or when the image is built by a Dockerfile not read yet (``build``).
    # Reading must not rely on the entry point of such a launch: no finding
    # that depends on which vLLM parser (or whether vLLM) reads the args.
    entry_unknown: str | None = None
    # The image is built from a Dockerfile (compose ``build:``), not pulled.
    build: ImageBuild | None = None
    # The variables it reads that the file never sets, with their guards.
    inputs: list[Input] = field(default_factory=list)
    # The --config file as the document itself writes it (a heredoc,
    # ``cat > cfg.yaml <<EOF``): its flags, at their places in the document.
    written_config: "Launch | None" = None
    problems: list[ParseProblem] = field(default_factory=list)
    # Words after the entry that the launch could not resolve into argv
    # (``"$@"``, ``"${ARGS[@]}"``): flags may hide there.
    opaque: list[Word] = field(default_factory=list)
    # Where in the document a flag can be inserted and how flags are laid out
    # (used by fixes): "multiline-backslash", "single-line", "yaml-list",
    # "yaml-list-pairs", "yaml-mapping", "json-array".
    layout: str = "single-line"
    # For YAML-hosted argv: the YAML sequence node the words came from.
    container: Any = None
    # Where it runs, as its own words and the resource around them say
    # (the container's GPU limit, ``docker run --gpus``): moves with it.
    deployment: "Deployment | None" = None
    # What the rest of the document adds (a Service sending traffic to its
    # pod, the job's ``#SBATCH`` lines): set by the parser on every parse,
    # never shifted, so that a launch an edit left alone sees it changed.
    linked: "Deployment | None" = None
    # The Kubernetes pod it runs in, (namespace, frozenset of its labels'
    # (key, value)): what a Service of the same file selects it by.
    pod: "tuple | None" = None
    # Set by an incremental re-parse: the previous parse's launch this one
    # is, moved by an edit above it (same words, same meaning).  Only the
    # next lint looks at it; not part of what the launch is.
    moved_from: Any = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> tuple:
        """Identity of a launch for incremental re-checking: its text."""
        return (self.form, self.entry, tuple(w.text for w in self.args), self.span)


# What a moved launch shifts only when it is read.
_LAZY = ("args", "env", "problems", "opaque", "container", "build", "inputs", "written_config", "deployment")


class MovedLaunch(Launch):
    """A launch of the last parse, moved by an edit above it.

    Its place (``span``, ``entry_span``, ``release_hints``) is set at once;
    its words, variables and the rest are shifted when first read
    (``make(*pending)`` builds the shifted launch: a function and its
    arguments, not a closure, since every launch below an edit gets one).
    After a keystroke most launches of a long file move and are never read
    again: the engine reuses what it found in them.  ``pending`` is the
    parser's own note of the moves not applied yet, so that the next move
    composes with them instead of wrapping them (which would keep every
    earlier version alive and replay them one by one).
    """

    __slots__ = ("_make", "pending")

    @classmethod
    def of(cls, origin: Launch, span: Span, entry_span: Span, release_hints: list,
           make, pending: Any = None) -> "MovedLaunch":
        self = _new(cls)
        self._make = None
        # Only fields without a lazy property (``_LAZY``) are written here, as
        # plain attributes: every launch below an edit is made on each keystroke.
        (self.form, self.entry, self.image, self.layout, self.entry_unknown, self.linked,
         self.pod) = _EAGER(origin)  # (``linked``: the parser sets it again)
        self.span = span
        self.entry_span = entry_span
        self.release_hints = release_hints  # the release is chosen for every launch
        self.moved_from = origin
        self.pending = pending
        self._make = make
        return self

    @property
    def unread(self) -> bool:
        """Whether its moves are still pending (nothing has read it)."""
        return getattr(self, "_make", None) is not None

    def _materialize(self) -> None:
        # ``_make`` goes only once every field is set: if building fails,
        # the next read tries again instead of finding the fields unset.
        full = self._make(*self.pending)
        for name in _LAZY:
            _SLOT[name].__set__(self, _SLOT[name].__get__(full))
        self._make = None
        self.pending = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Launch):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED)

    __hash__ = None  # type: ignore[assignment]


_SLOT = {name: Launch.__dict__[name] for name in Launch.__slots__}
_new = object.__new__
# The fields a moved launch takes from its origin as they are, read at once.
_EAGER = attrgetter("form", "entry", "image", "layout", "entry_unknown", "linked", "pod")
_COMPARED = [f.name for f in fields(Launch) if f.compare]


def _lazy(name: str) -> property:
    slot = _SLOT[name]

    def get(self):
        if getattr(self, "_make", None) is not None:
            self._materialize()
        return slot.__get__(self)

    def set(self, value) -> None:
        if getattr(self, "_make", None) is not None:
            self._materialize()
        slot.__set__(self, value)

    return property(get, set, doc=f"``Launch.{name}``, shifted when first read")


for _name in _LAZY:
    setattr(MovedLaunch, _name, _lazy(_name))


@dataclass(slots=True)
class ParsedDocument:
    """Everything the parsers found in one document."""

    path: str
    form: Form | None  # the document's form when it has one launch form
    launches: list[Launch] = field(default_factory=list)
    problems: list[ParseProblem] = field(default_factory=list)
    release_hints: list[ReleaseHint] = field(default_factory=list)
    # Paths of --config files named by launches, with the word naming them.
    config_refs: list[tuple[Launch, Word]] = field(default_factory=list)
    # Comment lines that carry ``# servelint:`` directives, by line number.
    directives: list[tuple[int, str, Span]] = field(default_factory=list)
    # What the parser keeps to re-read only the edited part next time.
    cache: Any = None
    # Where a parser asked for at most N launches stopped reading them: the
    # entry (``vllm serve``) of the first launch past the limit.
    unread: Span | None = None


# -- where a launch runs -----------------------------------------------------------
#
# What a launch's file says about the machine it is deployed on, next to the
# launch: read by the form parsers (``parse.deployment``), held against the
# launch by the rules of ``rules/deployment``.  A field left None (or empty)
# is one the file does not speak of; a ``Fact`` whose ``value`` is None is
# one it speaks of without saying what (a variable, a template, "all").
# Never changed once made, so hashable (not frozen: a frozen dataclass is
# slower to make, and every launch below an edit makes its facts again).


@dataclass(slots=True, unsafe_hash=True)
class Fact:
    """One thing a file says about the machine, and where it says it."""

    value: Any  # None: written, but not known from the file
    span: Span
    # How it is written, for messages: "the `nvidia.com/gpu` limit", "`--gpus`".
    said: str
    note: str | None = None  # why the value is not known

    def moved(self, move) -> "Fact":
        return Fact(self.value, move(self.span), self.said, self.note)


@dataclass(slots=True, unsafe_hash=True)
class GpuRequest:
    """One way the launch gets GPUs: how many, of which kind.  A file may
    allow several (a SkyPilot task's ``any_of``, a node affinity listing
    products); a check then has to hold for each."""

    count: Fact | None = None  # int: the GPUs the container, job or node gets
    kind: Fact | None = None  # str: the GPU as the file names it ("A100-80GB", "nvidia-l4")
    # The vocabulary of ``kind`` (``knowledge.gpus.VOCABULARIES``), None for a free name.
    vocabulary: str | None = None
    vendor: str | None = None  # from the resource name: "nvidia", "amd", "intel", "habana"
    memory_gib: Fact | None = None  # float: per GPU, when a label or a MIG profile says it

    def moved(self, move) -> "GpuRequest":
        return GpuRequest(
            None if self.count is None else self.count.moved(move),
            None if self.kind is None else self.kind.moved(move),
            self.vocabulary, self.vendor,
            None if self.memory_gib is None else self.memory_gib.moved(move),
        )


@dataclass(slots=True, unsafe_hash=True)
class Port:
    """A port the deployment sends traffic to or checks."""

    number: int | None  # None: a name (``port: http``) or a value not known from the file
    span: Span
    said: str  # "containerPort", "the readiness probe", "the Service `vllm` targetPort"...
    # "listen": the container says it listens there (containerPort, expose);
    # "probe": a health check calls it; "service": a Service or load
    # balancer sends traffic there; "publish": a host port is mapped to it.
    role: str
    name: str | None = None  # a named port, or the name a probe refers to

    def moved(self, move) -> "Port":
        return Port(self.number, move(self.span), self.said, self.role, self.name)


@dataclass(slots=True, unsafe_hash=True)
class Deployment:
    """What a launch's file says about where it runs."""

    # "container" (docker, compose, Kubernetes: /dev/shm defaults to 64 MiB),
    # "host" (a shell on the machine, a Slurm job), "unknown".
    runtime: str = "unknown"
    gpus: tuple[GpuRequest, ...] = ()  # alternatives; empty: the file does not say
    # int bytes, or "host" (the host's IPC namespace and /dev/shm).
    shm: Fact | None = None
    nodes: Fact | None = None  # int: nodes the job or task runs on
    ports: tuple[Port, ...] = ()
    span: Span | None = None  # where the deployment is declared (the container, service, job...)
    said: str = ""  # what declares it: "container `vllm`", "service `llm`", "`docker run`"

    def moved(self, move) -> "Deployment":
        """The same facts with every span mapped by ``move`` (a launch moved by an edit)."""
        return Deployment(
            self.runtime,
            tuple(g.moved(move) for g in self.gpus),
            None if self.shm is None else self.shm.moved(move),
            None if self.nodes is None else self.nodes.moved(move),
            tuple(p.moved(move) for p in self.ports),
            None if self.span is None else move(self.span),
            self.said,
        )

    def same_facts(self, other: "Deployment | None") -> bool:
        """Whether ``other`` says the same, wherever it says it (a Service
        that only moved with an edit).  Compared field by field: it runs for
        every launch an edit moved."""
        if other is None:
            return False
        if (self.runtime, self.said, len(self.gpus), len(self.ports)) != (
                other.runtime, other.said, len(other.gpus), len(other.ports)):
            return False
        if any((p.number, p.said, p.role, p.name) != (q.number, q.said, q.role, q.name)
               for p, q in zip(self.ports, other.ports)):
            return False
        if not (_same_fact(self.shm, other.shm) and _same_fact(self.nodes, other.nodes)):
            return False
        return all(_same_fact(g.count, h.count) and _same_fact(g.kind, h.kind) and _same_fact(g.memory_gib, h.memory_gib)
                   and (g.vocabulary, g.vendor) == (h.vocabulary, h.vendor) for g, h in zip(self.gpus, other.gpus))

    def over(self, base: "Deployment | None") -> "Deployment":
        """These facts, completed by ``base``'s where these say nothing
        (a launch's own ``srun --gres`` over its job's ``#SBATCH`` lines)."""
        if base is None:
            return self
        return Deployment(
            self.runtime if self.runtime != "unknown" else base.runtime,
            _gpus_over(self.gpus, base.gpus),
            self.shm if self.shm is not None else base.shm,
            self.nodes if self.nodes is not None else base.nodes,
            self.ports + tuple(p for p in base.ports if p not in self.ports),
            self.span if self.span is not None else base.span,
            self.said or base.said,
        )


def _gpus_over(own: tuple[GpuRequest, ...], base: tuple[GpuRequest, ...]) -> tuple[GpuRequest, ...]:
    """A launch's own GPU requests over its job's or node's: a request that
    counts GPUs without naming them (``docker run --gpus 2``) takes the
    kinds the base names (``#SBATCH --gres=gpu:a100:4``)."""
    if not own or not base:
        return own or base
    out: list[GpuRequest] = []
    for req in own:
        if req.kind is not None or not any(b.kind is not None for b in base):
            out.append(req)
            continue
        for b in base:
            out.append(GpuRequest(req.count, b.kind, b.vocabulary, req.vendor or b.vendor,
                                  req.memory_gib or b.memory_gib))
    return tuple(out)


def _same_fact(a: "Fact | None", b: "Fact | None") -> bool:
    if a is None or b is None:
        return a is b
    return (a.value, a.said, a.note) == (b.value, b.said, b.note)


def same_linked(a: "Deployment | None", b: "Deployment | None") -> bool:
    """Whether two ``Launch.linked`` say the same, wherever they say it."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return a.same_facts(b)
