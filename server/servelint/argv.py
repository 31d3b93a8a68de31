"""Read a launch's argv the way one vLLM release's ``vllm serve`` reads it.

This mirrors ``FlexibleArgumentParser.parse_args`` (vllm/utils/argparse_utils.py)
and the argparse machinery under it, as recorded in
``shared/research/vllm-cli-and-oracle.md`` §3 (0.33.0; the same in 0.25.0–0.33.0
except where noted):

* ``--config FILE`` (its own token only) inserts the file's flags right after
  ``serve [MODEL]``, so CLI flags override them; ``--config=FILE`` is ignored.
* ``--flag=value`` splits at the first ``=``; ``_`` becomes ``-`` in the name up
  to the first ``.``.
* ``-O3``, ``-O=3``, ``-Odecode`` and ``-O 3`` (0-3 only) become
  ``--optimization-level``.
* ``--x.y.z value`` collects into one JSON object for ``--x``, appended at the
  end of argv, so it replaces a whole ``--x '{...}'`` given anywhere.
* ``--model X`` is moved to the positional model slot (with a deprecation
  warning); a positional model given as well becomes an extra argument.
* argparse then accepts unique prefixes of long options, rejects ambiguous
  ones, and consumes values by ``nargs``.

Which parser reads a launch depends on its entry point: ``vllm serve``,
``python -m vllm.entrypoints.openai.api_server`` (no positional model:
``--model`` is the model) or, for a container image, what that image runs
at the launch's release (``knowledge.images``: ``vllm/vllm-openai`` ran the
api_server module before it ran ``vllm serve``).  What changed between
releases in the steps above (dotted keys, ``-O3``, what ``--model`` does
after ``vllm serve``) is read from the parser facts each release's own
parser showed the generator (``Knowledge.facts``), not assumed.

The result is structural: which words are flags, which option each names,
which words are its values.  Whether a value is valid, a flag unknown or a
combination broken is for the rules to say.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from .structs import dataclass, field
from .model import Entry, EnvVar, Launch, Word
from .text import Span

if TYPE_CHECKING:  # pragma: no cover
    from .knowledge.flags import Option, ReleaseKnowledge
    from collections.abc import Mapping

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
_OPT_LEVEL = re.compile(r"^-O(=?)(.*)$")

# vLLM's default when no model is given (ModelConfig.model default; the
# ``vllm serve`` description says so).  A release's own default is the
# ``--model`` option's default in its tables (``default_model``).
DEFAULT_MODEL = "Qwen/Qwen3-0.6B"


def default_model(kn: "ReleaseKnowledge | None") -> str:
    """The model vLLM serves when none is given, in this release."""
    opt = kn.by_dest.get("model") if kn is not None else None
    default = getattr(opt, "default", None)
    return default if isinstance(default, str) and default else DEFAULT_MODEL


@dataclass(slots=True)
class Flag:
    """One option as vLLM's parser will see it."""

    written: str  # the name as written: "--max_model_len", "-tp", "use-replayssm" (a YAML key)
    name_span: Span
    index: int  # position among the invocation's flags
    option: "Option | None" = None  # None: unknown or ambiguous
    string: str | None = None  # the option string it resolved to ("--no-enable-prefix-caching")
    candidates: tuple[str, ...] = ()  # for an ambiguous abbreviation
    spelling: str = "exact"  # exact|underscore|abbrev|short|config-key|dotted|opt-level
    values: list[Word] = field(default_factory=list)
    explicit: bool = False  # the value was attached with "="
    dotted_key: str | None = None  # "num_speculative_tokens" for --speculative-config.num_speculative_tokens
    dotted_append: bool = False  # "--x.y+ a,b"
    source: str = "cli"  # "cli" or "config"
    word: Word | None = None  # the word holding the name
    missing_value: bool = False  # the option needs a value and none followed
    # Values argparse would reject before any type check: a value given to a
    # flag that takes none ("--use-replayssm=true").
    unexpected_value: Word | None = None

    @property
    def dest(self) -> str | None:
        return self.option.dest if self.option is not None else None

    @property
    def path(self) -> str | None:
        """The file the flag is written in when it is not the linted
        document (a key of the --config file), else None."""
        return self.word.path if self.word is not None else None

    @property
    def canonical(self) -> str | None:
        """The option's primary spelling, for messages."""
        if self.option is None:
            return None
        return primary_string(self.option)

    @property
    def negated(self) -> bool:
        return self.option is not None and self.string in self.option.negative

    @property
    def value_span(self) -> Span | None:
        if not self.values:
            return None
        span = self.values[0].span
        for w in self.values[1:]:
            span = span.cover(w.span)
        return span

    @property
    def span(self) -> Span:
        """The flag and its values."""
        vs = self.value_span
        return self.name_span if vs is None else self.name_span.cover(vs)

    @property
    def exact(self) -> bool:
        return all(w.exact for w in self.values) and (self.word is None or self.word.exact)

    def value_text(self) -> str | None:
        if not self.values:
            return None
        return " ".join(w.text for w in self.values)

    def __repr__(self) -> str:
        vals = " ".join(w.text for w in self.values)
        return f"Flag({self.written}->{self.string} {vals!r})"


@dataclass(slots=True)
class Invocation:
    """A launch as one vLLM release reads it."""

    launch: Launch
    knowledge: "ReleaseKnowledge"  # the parser of the entry point the launch runs
    flags: list[Flag] = field(default_factory=list)
    model: Word | None = None
    model_source: str = "default"  # positional | --model | config | default
    model_flag: Flag | None = None
    extra: list[Word] = field(default_factory=list)  # positionals vLLM will reject
    config_path: Word | None = None
    config_launch: Launch | None = None
    # How the engine fared reading the --config file: "" (none or fine),
    # "missing", "not-yaml"; and the file's resolved path.
    config_state: str = ""
    config_file: str | None = None
    env: "Mapping[str, EnvVar]" = field(default_factory=dict)  # read only
    # The entry point read: "serve", "api_server" (the model is --model) or
    # "demo_api_server"; ``entry_known`` is False for an image whose entry
    # point servelint does not know (read as ``vllm serve``; rules that
    # depend on the entry point stay silent), ``image_entry`` says what an
    # upstream image runs and where that was read.
    entry: str = "serve"
    entry_known: bool = True
    image_entry: Any = None
    _last: "tuple[int, dict[str, Flag]] | None" = field(default=None, repr=False, compare=False)
    _by_dest: "tuple[int, dict[str, list[Flag]]] | None" = field(default=None, repr=False, compare=False)
    # What rules derive from the flags (a value, the merged speculative
    # config), computed once per launch instead of once per rule asking;
    # keyed with the flag count, like the indexes above.
    derived: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def version(self) -> str:
        return self.knowledge.version

    @property
    def model_name(self) -> str:
        return self.model.text if self.model is not None else default_model(self.knowledge)

    def flags_for(self, dest: str) -> list[Flag]:
        n = len(self.flags)
        if self._by_dest is None or self._by_dest[0] != n:
            index: dict[str, list[Flag]] = {}
            for f in self.flags:
                if f.option is not None:
                    index.setdefault(f.option.dest, []).append(f)
            self._by_dest = (n, index)
        # A copy: callers may sort or extend what they get.
        return list(self._by_dest[1].get(dest, ()))

    def last(self, dest: str) -> Flag | None:
        """The flag that decides ``dest``: argparse keeps the last one."""
        # Indexed once per flag count: rules ask this for every flag, and a
        # 100 KB launch line has thousands of them.
        n = len(self.flags)
        if self._last is None or self._last[0] != n:
            index: dict[str, Flag] = {}
            for f in self.flags:
                if f.option is not None:
                    index[f.option.dest] = f
            self._last = (n, index)
        return self._last[1].get(dest)

    def flag_at(self, offset: int, path: str | None = None) -> "tuple[Flag, Word | None] | None":
        """The flag written at ``offset`` (ends included, for a cursor), and
        the value word holding it (None: on the flag's name).  ``path`` names
        the file the offset is in when it is a merged ``--config`` file."""
        for flag in self.flags:
            if flag.word is not None and flag.word.path != path:
                continue
            if flag.name_span.contains(offset):
                return flag, None
            for w in flag.values:
                if w.path == path and w.span.contains(offset):
                    return flag, w
        return None

    def env_value(self, name: str) -> str | None:
        var = self.env.get(name)
        return var.value if var is not None else None


def _normalise(name: str) -> str:
    """``--max_model_len`` → ``--max-model-len``; only up to the first dot."""
    head, dot, tail = name.partition(".")
    return head[:2] + head[2:].replace("_", "-") + dot + tail


def _looks_like_option(word: Word, kn: "ReleaseKnowledge") -> bool:
    """argparse's ``_parse_optional`` test: would this word start an option?"""
    s = word.text
    if not s or s[0] != "-" or s == "-":
        return False
    if s in kn.by_string:
        return True
    if _NEGATIVE_NUMBER.match(s):
        return False
    if " " in s:
        return False
    return True


def prefix_matches(kn: "ReleaseKnowledge", prefix: str) -> list[str]:
    """Every accepted long option string starting with ``prefix``."""
    strings = kn.long_strings
    lo = bisect_left(strings, prefix)
    out = []
    for s in strings[lo:]:
        if not s.startswith(prefix):
            break
        out.append(s)
    return out


def primary_string(opt: "Option") -> str:
    """The spelling vLLM's help shows first: its first visible long string."""
    for s in opt.visible or opt.strings:
        if s.startswith("--"):
            return s
    return (opt.visible or opt.strings)[0]


def resolve_option(kn: "ReleaseKnowledge", name: str) -> tuple["Option | None", str | None, tuple[str, ...]]:
    """argparse's lookup of a long option (the part before any ``=``):
    exact string, else a unique prefix of the option strings.

    Returns (option, matched string, ambiguous candidates).
    """
    opt = kn.by_string.get(name)
    if opt is not None:
        return opt, name, ()
    if name.startswith("--") and len(name) > 2:
        matches = prefix_matches(kn, name)
        if len(matches) == 1:
            return kn.by_string[matches[0]], matches[0], ()
        if len(matches) > 1:
            # argparse reports every candidate string, including aliases of
            # one option; several strings of the *same* action are still
            # ambiguous to it.
            return None, None, tuple(matches)
    return None, None, ()


def resolve_short(kn: "ReleaseKnowledge", text: str) -> tuple["Option | None", str | None, tuple[str, ...], int | None]:
    """argparse's lookup of a single-dash word, as Python 3.11's
    ``_parse_optional``/``_get_option_tuples`` do it (vLLM runs on 3.10-3.12):

    * the whole word, or the part before ``=``, is an option string;
    * else every option string the word is a prefix of (``-t`` -> ``-tp``),
      plus the option named by the first two characters with the rest
      attached as its value (``-q8`` -> ``-q 8``).  ``-tp2`` is neither:
      ``-t`` is no option, so it is an unknown one.

    Returns (option, matched string, ambiguous candidates, start of an
    attached value in ``text`` or None).
    """
    opt = kn.by_string.get(text)
    if opt is not None:
        return opt, text, (), None
    head, eq, _ = text.partition("=")
    if eq and head in kn.by_string:
        return kn.by_string[head], head, (), len(head) + 1
    found: list[tuple[str, int | None]] = []
    for s in kn.by_string:
        if s == text[:2]:
            found.append((s, 2))
        elif s.startswith(text):
            found.append((s, None))
    if len(found) == 1:
        s, at = found[0]
        return kn.by_string[s], s, (), at
    if len(found) > 1:
        return None, None, tuple(s for s, _ in found), None
    return None, None, (), None


def interpret(
    launch: Launch,
    kn: "ReleaseKnowledge",
    *,
    config_words: list[Word] | None = None,
    config_launch: Launch | None = None,
) -> Invocation:
    """Read ``launch`` with release ``kn``.

    ``config_words`` are the argv words of the ``--config`` file the launch
    names (already read by the engine), inserted where vLLM inserts them.
    """
    kn, entry, known, image_entry = entry_knowledge(launch, kn)
    # The launch's environment as it is (read only): a script exporting
    # thousands of variables shares them between launches (model.Env).
    inv = Invocation(launch=launch, knowledge=kn, env=launch.env, config_launch=config_launch,
                     entry=entry, entry_known=known, image_entry=image_entry)
    words = list(launch.args)
    # The api_server parser has no positional model before 0.10.0 (--model
    # is it; from 0.10.0 it takes `model_tag` too); a --config file read on
    # its own has none.
    flat = (entry != "serve" and "model_tag" not in kn.by_dest) or launch.entry is Entry.CONFIG_FILE

    # --config FILE: vLLM inserts the file's args after "serve [MODEL]".
    for i, w in enumerate(words):
        if w.text == "--config" and i + 1 < len(words):
            inv.config_path = words[i + 1]
            break
    if config_words:
        # Where the release puts the file's flags (observed: kn.facts): after
        # `serve MODEL`, or before the model (0.6.x); at the start of an
        # api_server's argv, or after its first word (0.6.x).
        where = (kn.facts or {}).get("config_insert")
        insert_at = 0
        if where == "after-first-word":
            insert_at = 1 if words and launch.entry is not Entry.CONFIG_FILE else 0
        elif not flat and where != "before-model" and words and not words[0].text.startswith("-"):
            insert_at = 1
        words = words[:insert_at] + list(config_words) + words[insert_at:]

    _read_flags(inv, words, kn, flat=flat)
    _settle_model(inv, flat=flat)
    return inv


def _spaced_positional(word: Word, kn: "ReleaseKnowledge") -> bool:
    """A long-option word with a space in it that argparse takes as a
    positional: ``"--max-model-len 4096"`` as one argument.  ``_parse_optional``
    returns an option for the exact string or a known name before ``=``
    (``--x={"a": 1}`` keeps its spaces in the value), and only then says
    "if it contains a space, it was meant to be a positional" (Lib/argparse.py,
    3.10-3.13).  The parsers report the word as a joined argument (SL014)."""
    text = word.text
    if " " not in text or not text.startswith("--") or word.role:
        return False
    name, eq, _ = text.partition("=")
    if _normalise(text) in kn.by_string:
        return False
    return not (eq and resolve_option(kn, _normalise(name))[0] is not None)


def entry_knowledge(launch: Launch, kn: "ReleaseKnowledge"):
    """(knowledge of the parser that reads ``launch``, its entry name,
    whether it is known, the upstream image's ImageEntry) for a launch
    read with release ``kn``."""

    def of(name: str) -> "ReleaseKnowledge":
        try:
            return kn.for_entry(name)
        except (KeyError, AttributeError):
            return kn

    if launch.entry_unknown:
        # The file does not show what runs the args (an image in a variable,
        # a Dockerfile not read, another program): read them as `vllm serve`
        # would, and let no finding depend on the entry point.
        return of("serve"), "serve", False, None
    if launch.entry is Entry.API_SERVER:
        return of("api_server"), "api_server", True, None
    if launch.entry is Entry.DEMO_SERVER:
        # The old demo server's own flat parser, in the releases that ship
        # the module; in the others the module is not there to parse anything.
        if "demo_api_server" in getattr(kn, "entries", ()):
            return of("demo_api_server"), "demo_api_server", True, None
        return of("serve"), "serve", False, None
    if launch.entry is Entry.IMAGE:
        from .knowledge import images

        # An image held in a variable, or not named at all, runs what it runs.
        got = images.entry_point(launch.image, kn.version) if launch.image else None
        if got is not None and got.entry in ("serve", "api_server"):
            chosen = of(got.entry)
            return chosen, getattr(chosen, "entry", got.entry), True, got
        # Not an upstream image, or one that runs a shell or a wrapper:
        # read the args as `vllm serve` would, the entry point unknown.
        return of("serve"), "serve", False, got
    return of("serve"), "serve", True, None


def _read_flags(inv: Invocation, words: list[Word], kn: "ReleaseKnowledge", *, flat: bool) -> None:
    facts = getattr(kn, "facts", None) or {}
    # Parser behaviour the release's own parser showed (None: not probed,
    # read as 0.33.0 does).
    dotted_keys = facts.get("dotted_keys") is not False
    opt_level = facts.get("opt_level") is not False
    positionals: list[Word] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        text = w.text
        source = "config" if w.role == "config-key" else "cli"
        if w.role == "config-value" or not text.startswith("-") or text == "-" or (
            _NEGATIVE_NUMBER.match(text) and text not in kn.by_string
        ) or _spaced_positional(w, kn):
            positionals.append(w)
            i += 1
            continue

        # -O3 / -O=3 / -Odecode / -O 3: what vLLM makes of it is a fact of the
        # release (kn.facts["opt_level_becomes"]): --optimization-level
        # (0.33.0; -O is no option string there), a key of the compilation
        # config ("-O3" -> "-O.level=3"), or -O's own value (0.7-0.8, where
        # argparse reads "-O3" as "-O 3").
        becomes = facts.get("opt_level_becomes")
        if (opt_level and becomes and becomes.startswith("compilation-config.") and text.startswith("-O")
                and text != "-O" and text[2:3] != "." and text not in kn.by_string):
            key = becomes.split(".", 1)[1]
            opt = kn.by_string.get("-O")
            start = 3 if text[2:3] == "=" else 2
            flag = Flag(written=text[:2], name_span=w.sub(0, 2), index=len(inv.flags), option=opt,
                        string="-O" if opt is not None else None, spelling="dotted", dotted_key=key,
                        word=w, source=source, explicit=True)
            flag.values.append(w.slice(start))
            inv.flags.append(flag)
            i += 1
            continue
        m = _OPT_LEVEL.match(text) if opt_level and "-O" not in kn.by_string else None
        if m and text not in kn.by_string:
            opt, string, _ = resolve_option(kn, "--optimization-level")
            flag = Flag(written=text, name_span=w.sub(0, 2), index=len(inv.flags), option=opt,
                        string=string, spelling="opt-level", word=w, source=source)
            rest = m.group(2)
            if rest or m.group(1):
                start = 2 + len(m.group(1))
                flag.values.append(w.slice(start))
                flag.explicit = True
                i += 1
            elif i + 1 < n and words[i + 1].text in ("0", "1", "2", "3"):
                flag.values.append(words[i + 1])
                i += 2
            else:
                # vLLM leaves a bare "-O" alone and argparse rejects it.
                flag.option, flag.string = None, None
                i += 1
            inv.flags.append(flag)
            continue

        name, eq, _ = text.partition("=")
        name_len = len(name)
        if name.startswith("--"):
            name = _normalise(name)
        spelling = "exact"
        if w.role == "config-key":
            spelling = "config-key"
        elif name != text[:name_len]:
            spelling = "underscore"

        dotted_key = None
        append = False
        base = name
        if name.startswith("-") and "." in name and dotted_keys:
            base, _, dotted_key = name.partition(".")
            if dotted_key.endswith("+"):
                dotted_key, append = dotted_key[:-1], True
            spelling = "dotted"

        # Where the value attached to the name starts: after "=", or right
        # after a one-letter option ("-q8").
        value_at = name_len + 1 if eq else None
        if base.startswith("--"):
            opt, string, candidates = resolve_option(kn, base)
        elif dotted_key is not None:
            # vLLM appends the merged object as "-cc '{...}'": argparse
            # resolves that base like any single-dash word.
            opt, string, candidates, _ = resolve_short(kn, base)
        else:
            opt, string, candidates, value_at = resolve_short(kn, text)
            if value_at is not None:
                eq = text[value_at - 1] if text[value_at - 1] == "=" else "glued"
                name_len = value_at - 1 if eq == "=" else value_at
                base = name = text[:name_len]
            elif eq:
                # argparse only splits "-x=v" at "=" when "-x" is an option:
                # the whole word is the unknown option.
                eq, name_len = "", len(text)
                base = name = text
        if opt is not None and string != base and spelling in ("exact", "underscore"):
            spelling = "abbrev"
        elif opt is not None and not base.startswith("--") and spelling == "exact":
            spelling = "short"
        if w.role == "config-key":
            # The name span is the YAML key as written, not the synthesised "--".
            name_span = w.sub(2, name_len)
        else:
            name_span = w.sub(0, name_len)
        flag = Flag(
            written=text[:name_len] if w.role != "config-key" else text[2:name_len],
            name_span=name_span,
            index=len(inv.flags),
            option=opt,
            string=string,
            candidates=candidates,
            spelling=spelling,
            dotted_key=dotted_key,
            dotted_append=append,
            source=source,
            word=w,
        )
        inv.flags.append(flag)
        i += 1

        takes_value = True
        nargs: Any = None
        if opt is not None:
            takes_value = opt.takes_value or dotted_key is not None
            nargs = opt.nargs if dotted_key is None else None
        if eq:
            value = w.slice(value_at if value_at is not None else name_len + 1)
            if takes_value:
                flag.values.append(value)
                flag.explicit = True
            else:
                flag.unexpected_value = value
            continue
        if not takes_value:
            continue
        if opt is None:
            # An unknown option: argparse leaves what follows as positionals;
            # a following plain word is most likely meant as its value.
            if i < n and not _looks_like_option(words[i], kn) and words[i].role != "config-key":
                flag.values.append(words[i])
                i += 1
            continue
        if nargs in (None, 1):
            if i < n and not _looks_like_option(words[i], kn) and words[i].role != "config-key":
                flag.values.append(words[i])
                i += 1
            else:
                flag.missing_value = True
        elif nargs == "?":
            if i < n and not _looks_like_option(words[i], kn) and words[i].role != "config-key":
                flag.values.append(words[i])
                i += 1
        elif nargs in ("+", "*") or isinstance(nargs, int):
            limit = nargs if isinstance(nargs, int) else n
            taken = 0
            while i < n and taken < limit and not _looks_like_option(words[i], kn) and words[i].role != "config-key":
                flag.values.append(words[i])
                i += 1
                taken += 1
            if (nargs == "+" and taken == 0) or (isinstance(nargs, int) and taken < nargs):
                flag.missing_value = True
    inv.extra = positionals  # _settle_model takes the model out


def _settle_model(inv: Invocation, *, flat: bool) -> None:
    positionals = inv.extra
    model_flags = inv.flags_for("model")
    cli_model = [f for f in model_flags if f.source == "cli" and f.values]
    cfg_model = [f for f in model_flags if f.source == "config" and f.values]
    if flat:
        # The flat parsers (api_server, and a --config file read on its own)
        # have no positional model: every positional is rejected.
        if model_flags and model_flags[-1].values:
            inv.model, inv.model_source, inv.model_flag = model_flags[-1].values[0], "--model", model_flags[-1]
            if model_flags[-1].source == "config":
                inv.model_source = "config"
        inv.extra = positionals
        return
    facts = getattr(inv.knowledge, "facts", None) or {}
    moved = (facts.get("model_flag") or {}).get("outcome", "moved") == "moved"
    if cli_model and moved:
        # vLLM moves "--model X" to the positional slot; a positional given as
        # well is then left over as an unrecognised argument.
        flag = cli_model[-1]
        inv.model, inv.model_source, inv.model_flag = flag.values[0], "--model", flag
        inv.extra = positionals
        return
    if positionals:
        inv.model, inv.model_source = positionals[0], "positional"
        inv.extra = positionals[1:]
        return
    if cli_model:
        # A release that rejects --model after `vllm serve` (the rules say
        # so); it still names the model the user meant.
        flag = cli_model[-1]
        inv.model, inv.model_source, inv.model_flag = flag.values[0], "--model", flag
        inv.extra = []
        return
    # A `model:` key of the --config file names the model of `vllm serve`
    # only in the releases that read it (kn.facts["config_model_key"]; 0.6.x
    # and 0.7.x stop with "No model_tag specified!").
    if cfg_model and facts.get("config_model_key", "model") == "model":
        inv.model, inv.model_source, inv.model_flag = cfg_model[-1].values[0], "config", cfg_model[-1]
    inv.extra = []
