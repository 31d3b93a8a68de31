"""``dataclass`` as the standard library's, with the methods it adds made
when they are first needed or shared by every class, instead of compiled for
each class when it is defined.

Why: ``dataclasses.dataclass`` writes each method it adds as source text and
compiles it when the class is defined.  A command-line check defines some
forty classes before it reads its file, about half of which it never makes
an instance of, and those compiles were the largest single part of its start
(bench/RESULTS.md, "cold start").  Here:

* ``__init__`` is dataclasses' own, generated when the class is first
  instantiated (instances of ``Word``, ``Flag`` and ``Diagnostic`` are made by
  the thousand, so ``__init__`` stays compiled code);
* ``__eq__``, ``__repr__``, ``__hash__``, the ordering methods and a frozen
  class's ``__setattr__``/``__delattr__`` are generic functions over the
  class's fields that give the results dataclasses' generated ones give: the
  same fields (``compare``, ``repr``, ``hash`` of each ``field()``), the same
  tuple comparisons, the same text, the same hash rules, the same
  ``FrozenInstanceError``.

Use it as ``dataclass``; ``dataclasses.field``, ``replace`` and ``fields``
work on these classes as on any dataclass.  A dataclass may not inherit from
another (none does; dataclasses' rules for mixing frozen and plain bases are
not reproduced).
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib

__all__ = ["dataclass"]


def dataclass(cls=None, /, *, eq=True, repr=True, order=False, unsafe_hash=False, frozen=False, slots=False):
    """``dataclasses.dataclass`` with the options servelint uses."""

    def wrap(cls):
        if any("__dataclass_fields__" in base.__dict__ for base in cls.__mro__[1:]):
            raise TypeError(f"{cls.__qualname__}: servelint.structs.dataclass does not support dataclass bases")
        own = cls.__dict__
        class_hash = own.get("__hash__", dataclasses.MISSING)
        explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and "__eq__" in own))
        has_init, has_repr, has_eq = "__init__" in own, "__repr__" in own, "__eq__" in own
        if order and not eq:
            raise ValueError("eq must be true if order is true")
        cls = dataclasses.dataclass(cls, init=False, eq=False, repr=False, slots=slots)
        fields = dataclasses.fields(cls)
        if not has_init:
            _check_defaults(cls, fields)
            cls.__init__ = _first_init(cls, frozen, slots)
        if frozen:
            if "__setattr__" in own or "__delattr__" in own:
                raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
            cls.__setattr__, cls.__delattr__ = _frozen(cls, frozenset(f.name for f in fields))
            if slots:
                cls.__getstate__, cls.__setstate__ = _slot_state(fields)
        if repr and not has_repr:
            cls.__repr__ = _repr_of(cls, tuple(f.name for f in fields if f.repr))
        compared = _values_of(tuple(f.name for f in fields if f.compare))
        if eq and not has_eq:
            cls.__eq__ = _compare_with(cls, "__eq__", operator.eq, compared)
        if order:
            for name, op in (("__lt__", operator.lt), ("__le__", operator.le), ("__gt__", operator.gt), ("__ge__", operator.ge)):
                if name in own:
                    raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using functools.total_ordering")
                setattr(cls, name, _compare_with(cls, name, op, compared))
        # dataclasses' table of what becomes of __hash__ (unsafe_hash, eq, frozen, explicit).
        if explicit_hash and unsafe_hash:
            raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
        if not explicit_hash and (unsafe_hash or (eq and frozen)):
            cls.__hash__ = _hash_of(cls, _values_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))))
        elif not explicit_hash and eq and not frozen:
            cls.__hash__ = None
        return cls

    return wrap if cls is None else wrap(cls)


class _Factory:
    """The default of a parameter whose field has a ``default_factory``."""

    def __repr__(self):
        return "<factory>"


_FACTORY = _Factory()


def _first_init(cls, frozen: bool, slots: bool):
    """An ``__init__`` that compiles the class's own on first use and puts it
    in its place: the code dataclasses generates (the same parameters,
    defaults, factories, ``init=False`` and ``kw_only`` fields, frozen
    stores through ``object.__setattr__``, the call of ``__post_init__``)."""

    def __init__(self, *args, **kwargs):
        real = _compile_init(cls, frozen, slots)
        cls.__init__ = real
        real(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compile_init(cls, frozen: bool, slots: bool):
    scope = {"__dataclass_factory__": _FACTORY, "__dataclass_object__": object}
    params, keywords, body = [], [], []
    for f in dataclasses.fields(cls):
        default = f"__dataclass_dflt_{f.name}__"
        if f.init:
            if f.default_factory is not dataclasses.MISSING:
                scope[default] = f.default_factory
                param = f"{f.name}=__dataclass_factory__"
                value = f"{default}() if {f.name} is __dataclass_factory__ else {f.name}"
            elif f.default is not dataclasses.MISSING:
                scope[default] = f.default
                param, value = f"{f.name}={default}", f.name
            else:
                param = value = f.name
            (keywords if f.kw_only else params).append(param)
        elif f.default_factory is not dataclasses.MISSING:
            scope[default] = f.default_factory
            value = f"{default}()"
        elif slots and f.default is not dataclasses.MISSING:
            scope[default] = f.default
            value = default
        else:
            continue  # read from the class attribute that holds the default
        body.append(f"__dataclass_object__.__setattr__(__dataclass_self__, {f.name!r}, {value})" if frozen
                    else f"__dataclass_self__.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("__dataclass_self__.__post_init__()")
    signature = ", ".join(["__dataclass_self__", *params, *(["*", *keywords] if keywords else [])])
    exec(f"def __init__({signature}):\n    " + "\n    ".join(body or ["pass"]) + "\n", scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _check_defaults(cls, fields) -> None:
    """dataclasses' definition-time check of the parameter order."""
    seen_default = False
    for f in fields:
        if f.init and not f.kw_only:
            if not (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _frozen(cls, names: frozenset[str]):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__


def _slot_state(fields):
    """Pickling and copying of a frozen class with slots (its ``__setattr__``
    refuses the default way of restoring them)."""
    names = tuple(f.name for f in fields)

    def __getstate__(self):
        return [getattr(self, n) for n in names]

    def __setstate__(self, state):
        for name, value in zip(names, state):
            object.__setattr__(self, name, value)

    return __getstate__, __setstate__


def _values_of(names: tuple[str, ...]):
    """The tuple of the named attributes of an object (as dataclasses compare them)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return operator.attrgetter(*names)


def _compare_with(cls, name, op, values):
    def compare(self, other):
        if other.__class__ is self.__class__:
            return op(values(self), values(other))
        return NotImplemented

    compare.__name__ = name
    compare.__qualname__ = f"{cls.__qualname__}.{name}"
    return compare


def _hash_of(cls, values):
    def __hash__(self):
        return hash(values(self))

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    return __hash__


def _repr_of(cls, names: tuple[str, ...]):
    @reprlib.recursive_repr()
    def __repr__(self):
        return self.__class__.__qualname__ + "(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"

    __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
    return __repr__
