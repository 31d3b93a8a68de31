"""``servelint.structs.dataclass`` behaves as the standard library's
``dataclasses.dataclass``: each class shape servelint uses is defined with
both, and the two are held to the same results (construction, defaults,
factories, ``__post_init__``, equality, ordering, hashing, repr, frozen
errors, ``replace``, copying and pickling)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from typing import ClassVar  # noqa: F401  (dataclasses reads "ClassVar[...]" strings through the module)

from servelint import structs

OPTIONS = [
    {},
    {"slots": True},
    {"frozen": True},
    {"frozen": True, "slots": True},
    {"frozen": True, "slots": True, "order": True},
    {"slots": True, "unsafe_hash": True},
    {"eq": False},
]


def _define(module, options, name):
    def post_init(self):
        if getattr(self, "count", 0) < 0:
            raise ValueError("count must not be negative")

    namespace = {
        "__annotations__": {"name": "str", "count": "int", "tags": "list[str]", "note": "str",
                            "hidden": "int", "cached": "dict"},
        "__module__": __name__,
        "__qualname__": name,
        "count": 0,
        "tags": module.field(default_factory=list),
        "note": module.field(default="", compare=False),
        "hidden": module.field(default=7, repr=False),
        "cached": module.field(default_factory=dict, init=False, repr=False, compare=False),
        "__post_init__": post_init,
    }
    return module.dataclass(**options)(type(name, (), namespace))


# Module-level twins so that pickle finds them by name.
PAIRS = []
for i, opts in enumerate(OPTIONS):
    std = _define(dataclasses, opts, f"Std{i}")
    ours = _define(structs, opts, f"Ours{i}")
    globals()[f"Std{i}"], globals()[f"Ours{i}"] = std, ours
    PAIRS.append((opts, std, ours))


def _module(cls):
    return structs if cls.__name__.startswith("Ours") else dataclasses


def _outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # the same exception class and text
        return (type(e).__name__, str(e).replace("Std", "X").replace("Ours", "X"))


def _norm(value):
    if isinstance(value, str):
        return value.replace("Std", "X").replace("Ours", "X")
    if isinstance(value, (tuple, list)):
        return type(value)(_norm(v) for v in value)
    return value


@pytest.mark.parametrize("opts,std,ours", PAIRS, ids=[str(o) for o in OPTIONS])
def test_same_behaviour_as_dataclasses(opts, std, ours):
    def both(fn):
        return _norm(_outcome(lambda: fn(std))), _norm(_outcome(lambda: fn(ours)))

    checks = {
        "repr": lambda c: repr(c("a", 2, ["x"], "n")),
        "defaults": lambda c: (lambda o: (o.count, o.tags, o.note, o.hidden, o.cached))(c("a")),
        "fresh factory": lambda c: c("a").tags is not c("a").tags,
        "keywords": lambda c: repr(c(name="b", hidden=3)),
        "post_init": lambda c: c("a", -1),
        "missing arg": lambda c: c(),
        "too many": lambda c: c("a", 1, [], "", 2, 3),
        "eq": lambda c: (c("a", 1) == c("a", 1), c("a", 1) == c("a", 2), c("a", note="x") == c("a", note="y"),
                         c("a") == ("a",), c("a").__eq__(object())),
        "hash": lambda c: (c.__hash__ is None, hash(c("a", 1, ("t",))) == hash(c("a", 1, ("t",))) if c.__hash__ else None),
        "order": lambda c: (c("a", 1) < c("a", 2), c("b") <= c("a"), c("a") > c("a"), c("a") >= c("a")),
        "order other": lambda c: c("a") < 1,
        "set field": lambda c: setattr(c("a"), "count", 5),
        "set other": lambda c: setattr(c("a"), "other", 5),
        "delete": lambda c: delattr(c("a"), "count"),
        "replace": lambda c: repr(_module(c).replace(c("a", 1, ["t"]), count=4)),
        "replace init=False": lambda c: _module(c).replace(c("a"), cached={}),
        "fields": lambda c: [(f.name, f.type, f.init, f.repr, f.compare, f.hash, f.kw_only,
                              "MISSING" if f.default is _module(c).MISSING else f.default,
                              "MISSING" if f.default_factory is _module(c).MISSING else f.default_factory)
                             for f in _module(c).fields(c)],
        "fields of instance": lambda c: [f.name for f in _module(c).fields(c("a"))],
        "copy": lambda c: repr(copy.copy(c("a", 1, ["t"]))),
        "deepcopy": lambda c: repr(copy.deepcopy(c("a", 1, ["t"]))),
        "pickle": lambda c: repr(pickle.loads(pickle.dumps(c("a", 1, ["t"])))),
        "match_args": lambda c: c.__match_args__,
        "slots": lambda c: hasattr(c, "__slots__") and tuple(c.__slots__),
    }
    for what, fn in checks.items():
        theirs, mine = both(fn)
        if what == "set other" and opts.get("frozen") and opts.get("slots"):
            # dataclasses' own __setattr__ then fails on its super() call
            # (TypeError); both refuse the assignment.
            assert theirs[0] == "TypeError" and mine[0] == "FrozenInstanceError"
            continue
        assert mine == theirs, what


def test_recursive_repr_is_cut_as_dataclasses_cut_it():
    for decorator in (dataclasses.dataclass, structs.dataclass):
        @decorator
        class Node:
            child: object = None

        node = Node()
        node.child = node
        assert repr(node) == "test_recursive_repr_is_cut_as_dataclasses_cut_it.<locals>.Node(child=...)"


def test_definition_errors_match():
    for decorator in (dataclasses.dataclass, structs.dataclass):
        with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
            decorator(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 0}))


def test_field_errors_match():
    for module in (dataclasses, structs):
        with pytest.raises(ValueError, match="mutable default <class 'list'> for field a is not allowed"):
            module.dataclass(type("Bad", (), {"__annotations__": {"a": "list"}, "a": []}))
        with pytest.raises(TypeError, match="'b' is a field but has no type annotation"):
            module.dataclass(type("Bad", (), {"__annotations__": {}, "b": module.field(default=1)}))
        with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
            module.field(default=1, default_factory=list)


def test_class_variables_are_not_fields():
    for module in (dataclasses, structs):
        cls = module.dataclass(type("K", (), {"__annotations__": {"a": "int", "b": "ClassVar[int]"}, "b": 3}))
        assert [f.name for f in module.fields(cls)] == ["a"]
        assert cls(1).b == 3


def test_a_cli_check_does_not_import_dataclasses(tmp_path):
    """The point of this module: a check's start stays without dataclasses
    and inspect (and ast, dis, tokenize behind it)."""
    import subprocess
    import sys

    script = tmp_path / "serve.sh"
    script.write_text("vllm serve Qwen/Qwen3-8B --max-model-len 4096\n")
    probe = ("import sys, runpy; sys.argv = ['servelint', 'check', '--fail-on', 'never', sys.argv[1]]\n"
             "try:\n    runpy.run_module('servelint', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in ('dataclasses', 'inspect', 'ast') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe, str(script)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_a_dataclass_base_is_refused():
    base = structs.dataclass(type("Base", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="does not support dataclass bases"):
        structs.dataclass(type("Child", (base,), {"__annotations__": {"b": "int"}}))


def test_an_assembler_sets_every_field_in_order_and_nothing_else():
    @structs.dataclass(slots=True)
    class Result:
        launch: str
        items: list = structs.field(default_factory=list)
        linked: object = None

        def __post_init__(self) -> None:
            self.linked = "from post-init"

    class Moved(Result):
        __slots__ = ("seen",)

        @property
        def items(self):
            return Result.__dict__["items"].__get__(self)

        @items.setter
        def items(self, value) -> None:
            self.seen = value
            Result.__dict__["items"].__set__(self, value)

    make = structs.assembler(Result)
    got = make(Result, "a", [1], "given")
    assert (got.launch, got.items, got.linked) == ("a", [1], "given")  # no default, factory or __post_init__
    assert got != Result("a", [1])  # the class call runs __post_init__
    moved = make(Moved, "b", [2], None)
    assert type(moved) is Moved and moved.seen == [2]  # a subclass's property is used
    with pytest.raises(TypeError):
        make(Result, "a", [1])  # every field, always

    @structs.dataclass(frozen=True)
    class Frozen:
        a: int

    with pytest.raises(TypeError):
        structs.assembler(Frozen)


def test_a_copier_is_replace_with_the_changed_fields_given_in_turn():
    @structs.dataclass(slots=True)
    class Plain:
        a: int
        b: list = structs.field(default_factory=list)

    @structs.dataclass(slots=True)
    class Checked:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            if self.b < 0:
                raise ValueError("negative")

    plain = Plain(1, [2])
    got = structs.copier(Plain, "a")(plain, 5)
    assert got == structs.replace(plain, a=5) and got.b is plain.b and got is not plain
    # A class that checks what it is given is still made through it.
    with pytest.raises(ValueError):
        structs.copier(Checked, "b")(Checked(1), -1)
    assert structs.copier(Checked, "b")(Checked(1), 3) == Checked(1, 3)
    with pytest.raises(TypeError):
        structs.copier(Plain, "c")
