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


def _define(decorator, options, name):
    def post_init(self):
        if getattr(self, "count", 0) < 0:
            raise ValueError("count must not be negative")

    namespace = {
        "__annotations__": {"name": "str", "count": "int", "tags": "list[str]", "note": "str",
                            "hidden": "int", "cached": "dict"},
        "__module__": __name__,
        "__qualname__": name,
        "count": 0,
        "tags": dataclasses.field(default_factory=list),
        "note": dataclasses.field(default="", compare=False),
        "hidden": dataclasses.field(default=7, repr=False),
        "cached": dataclasses.field(default_factory=dict, init=False, repr=False, compare=False),
        "__post_init__": post_init,
    }
    return decorator(**options)(type(name, (), namespace))


# Module-level twins so that pickle finds them by name.
PAIRS = []
for i, opts in enumerate(OPTIONS):
    std = _define(dataclasses.dataclass, opts, f"Std{i}")
    ours = _define(structs.dataclass, opts, f"Ours{i}")
    globals()[f"Std{i}"], globals()[f"Ours{i}"] = std, ours
    PAIRS.append((opts, std, ours))


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
        "replace": lambda c: repr(dataclasses.replace(c("a", 1, ["t"]), count=4)),
        "fields": lambda c: [(f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(c)],
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


def test_a_dataclass_base_is_refused():
    base = structs.dataclass(type("Base", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="does not support dataclass bases"):
        structs.dataclass(type("Child", (base,), {"__annotations__": {"b": "int"}}))
