"""``dataclass``, ``field``, ``fields`` and ``replace``: the standard
library's dataclasses as servelint uses them, without their cost at start.

Why: a command-line check defines some forty dataclasses before it reads its
file, about half of which it never makes an instance of.
``dataclasses.dataclass`` compiles each method it adds from source text when
the class is defined, and importing ``dataclasses`` imports ``inspect``, and
with it ``ast``, ``dis`` and ``tokenize``.  Together those were the largest
part of a check's start (bench/RESULTS.md, "cold start").  Here:

* ``__init__`` is the code dataclasses would generate (the same parameters,
  defaults, factories, ``init=False`` and ``kw_only`` fields, frozen stores
  through ``object.__setattr__``, the call of ``__post_init__``), compiled
  when the class is first instantiated: instances of ``Word``, ``Flag`` and
  ``Diagnostic`` are made by the thousand, so it stays compiled code;
* ``__eq__``, ``__repr__``, ``__hash__``, the ordering methods and a frozen
  class's ``__setattr__``/``__delattr__`` are generic functions over the
  fields, giving the results dataclasses' generated ones give (the same
  ``compare``/``repr``/``hash`` choice of fields, tuple comparisons, text,
  hash rules and ``FrozenInstanceError``); ``slots=True`` rebuilds the class
  with ``__slots__`` as dataclasses does.

``tests/test_structs.py`` defines each class shape servelint uses with both
and holds the two to the same behaviour.  What servelint does not use is not
here: ``InitVar``, ``KW_ONLY``, ``asdict``, dataclass bases (refused), and
these classes are not ``dataclasses.is_dataclass``.
"""

from __future__ import annotations

import operator
import reprlib
import sys

__all__ = ["FrozenInstanceError", "assembler", "copier", "dataclass", "field", "fields", "replace"]


class _Missing:
    def __repr__(self):
        return "MISSING"


MISSING = _Missing()

_FIELDS = "__struct_fields__"


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen class (as ``dataclasses``')."""


class Field:
    """One field: its name, type (the annotation as written), default or
    factory, and whether ``__init__``, ``__repr__``, comparisons and the hash
    take it."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "compare", "hash", "kw_only")

    def __init__(self, default, default_factory, init, repr, compare, hash, kw_only):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = self.type = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare, self.hash, self.kw_only = init, repr, compare, hash, kw_only

    def __repr__(self):
        return (f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r}, "
                f"init={self.init!r}, repr={self.repr!r}, compare={self.compare!r}, hash={self.hash!r}, "
                f"kw_only={self.kw_only!r})")


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, compare=True, hash=None, kw_only=False):
    """As ``dataclasses.field``."""
    return Field(default, default_factory, init, repr, compare, hash, kw_only)


def fields(class_or_instance) -> tuple[Field, ...]:
    """The fields of a class made by ``dataclass`` (or of its instance), in order."""
    try:
        return tuple(getattr(class_or_instance, _FIELDS).values())
    except AttributeError:
        raise TypeError("must be called with a servelint.structs dataclass type or instance") from None


def replace(obj, /, **changes):
    """A copy of ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def assembler(cls):
    """``make(c, *values)``: an instance of ``c`` (``cls`` or a subclass of
    it) with every field of ``cls``, in order, set to ``values``.  No
    defaults, factories or ``__post_init__``: for the places that make
    thousands of copies a keystroke and hold every value already (a class
    call parses its arguments and runs ``__post_init__``, ~1.5 us).  Fields
    are set as attributes, so a subclass's property for one is used.  Not
    for frozen classes."""
    if cls.__setattr__ is not object.__setattr__:
        raise TypeError(f"{cls.__name__} is frozen: an assembler sets its fields as attributes")
    names = [f.name for f in fields(cls)]
    params = [f"v{k}" for k in range(len(names))]
    return _maker(cls, "assembler", "make", ["c", *params], "c", dict(zip(names, params)))


def copier(cls, *changed: str):
    """``copy(obj, *values)``: a copy of ``obj`` (a ``cls``, or a subclass)
    with the fields ``changed`` set to ``values`` and the others as they are:
    ``replace(obj, **changes)`` without its per-call look at the fields.  A
    class whose fields are all init fields, with no ``__post_init__`` and
    not frozen, is copied field by field as ``assembler`` does; any other
    through the class call."""
    every = fields(cls)
    names = [f.name for f in every if f.init]
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no init fields {sorted(unknown)}")
    values = {n: n if n in changed else f"o.{n}" for n in names}
    if len(names) == len(every) and not hasattr(cls, "__post_init__") and cls.__setattr__ is object.__setattr__:
        return _maker(cls, "copier", "copy", ["o", *changed], "type(o)", values)
    scope: dict = {}
    args = ", ".join(f"{n}={v}" for n, v in values.items())
    exec(f"def copy(o, {', '.join(changed)}):\n    return type(o)({args})\n", scope)
    return scope["copy"]


def _maker(cls, kind: str, name: str, params: list[str], made: str, values: dict[str, str]):
    """A function ``name(*params)`` making a ``made`` with each field set to
    the expression ``values[field]``, as the class's ``__init__`` sets it,
    without the class call."""
    body = "".join(f"    __struct_self__.{n} = {v}\n" for n, v in values.items())
    scope = {"__struct_new__": object.__new__}
    exec(f"def {name}({', '.join(params)}):\n    __struct_self__ = __struct_new__({made})\n{body}"
         f"    return __struct_self__\n", scope)
    made_fn = scope[name]
    made_fn.__qualname__ = f"{kind}({cls.__qualname__})"
    return made_fn


def dataclass(cls=None, /, *, eq=True, repr=True, order=False, unsafe_hash=False, frozen=False, slots=False):
    """As ``dataclasses.dataclass`` with these options."""

    def wrap(cls):
        return _process(cls, eq, repr, order, unsafe_hash, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _is_classvar(annotation) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    typing = sys.modules.get("typing")
    return typing is not None and (annotation is typing.ClassVar or getattr(annotation, "__origin__", None) is typing.ClassVar)


def _process(cls, eq, repr, order, unsafe_hash, frozen, slots):
    if any(_FIELDS in base.__dict__ or "__dataclass_fields__" in base.__dict__ for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: servelint.structs.dataclass does not support dataclass bases")
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    own = cls.__dict__
    found: dict[str, Field] = {}
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = own.get(name, MISSING)
        f = value if isinstance(value, Field) else field(default=value)
        f.name, f.type = name, annotation
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        if isinstance(value, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        found[name] = f
    for name, value in own.items():
        if isinstance(value, Field) and name not in found:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    setattr(cls, _FIELDS, found)
    every = tuple(found.values())

    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    has_init, has_repr, has_eq = "__init__" in own, "__repr__" in own, "__eq__" in own
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
    if order:
        for name in ("__lt__", "__le__", "__gt__", "__ge__"):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                                "Consider using functools.total_ordering")
    if explicit_hash and unsafe_hash:
        raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
    if not has_init:
        _check_defaults(every)
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in every if f.init and not f.kw_only)

    if slots:
        cls = _with_slots(cls, every)
    if not has_init:
        cls.__init__ = _first_init(cls, frozen, slots)
    if frozen:
        cls.__setattr__, cls.__delattr__ = _frozen(cls, frozenset(found))
        if slots:
            cls.__getstate__, cls.__setstate__ = _slot_state(every)
    if repr and not has_repr:
        cls.__repr__ = _repr_of(cls, tuple(f.name for f in every if f.repr))
    compared = _values_of(tuple(f.name for f in every if f.compare))
    if eq and not has_eq:
        cls.__eq__ = _compare_with(cls, "__eq__", operator.eq, compared)
    if order:
        for name, op in (("__lt__", operator.lt), ("__le__", operator.le), ("__gt__", operator.gt), ("__ge__", operator.ge)):
            setattr(cls, name, _compare_with(cls, name, op, compared))
    # dataclasses' table of what becomes of __hash__ (unsafe_hash, eq, frozen, explicit).
    if not explicit_hash and (unsafe_hash or (eq and frozen)):
        cls.__hash__ = _hash_of(cls, _values_of(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))))
    elif not explicit_hash and eq and not frozen:
        cls.__hash__ = None
    return cls


def _with_slots(cls, every):
    """The class rebuilt with ``__slots__`` for its fields (as dataclasses
    rebuilds it: the defaults leave the class and go into ``__init__``)."""
    inherited = set()
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__", ())
        inherited.update((slots,) if isinstance(slots, str) else slots)
    namespace = dict(cls.__dict__)
    namespace["__slots__"] = tuple(f.name for f in every if f.name not in inherited)
    for f in every:
        namespace.pop(f.name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    qualname = cls.__qualname__
    cls = type(cls)(cls.__name__, cls.__bases__, namespace)
    cls.__qualname__ = qualname
    return cls


class _Factory:
    """The default of a parameter whose field has a ``default_factory``."""

    def __repr__(self):
        return "<factory>"


_FACTORY = _Factory()


def _first_init(cls, frozen: bool, slots: bool):
    """An ``__init__`` that compiles the class's own on first use and puts it
    in its place."""

    def __init__(self, *args, **kwargs):
        real = _compile_init(cls, frozen, slots)
        cls.__init__ = real
        real(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compile_init(cls, frozen: bool, slots: bool):
    scope = {"__struct_factory__": _FACTORY, "__struct_object__": object}
    params, keywords, body = [], [], []
    for f in fields(cls):
        default = f"__struct_default_{f.name}__"
        if f.init:
            if f.default_factory is not MISSING:
                scope[default] = f.default_factory
                param = f"{f.name}=__struct_factory__"
                value = f"{default}() if {f.name} is __struct_factory__ else {f.name}"
            elif f.default is not MISSING:
                scope[default] = f.default
                param, value = f"{f.name}={default}", f.name
            else:
                param = value = f.name
            (keywords if f.kw_only else params).append(param)
        elif f.default_factory is not MISSING:
            scope[default] = f.default_factory
            value = f"{default}()"
        elif slots and f.default is not MISSING:
            scope[default] = f.default
            value = default
        else:
            continue  # read from the class attribute that holds the default
        body.append(f"__struct_object__.__setattr__(__struct_self__, {f.name!r}, {value})" if frozen
                    else f"__struct_self__.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("__struct_self__.__post_init__()")
    signature = ", ".join(["__struct_self__", *params, *(["*", *keywords] if keywords else [])])
    exec(f"def __init__({signature}):\n    " + "\n    ".join(body or ["pass"]) + "\n", scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _check_defaults(every) -> None:
    """dataclasses' definition-time check of the parameter order."""
    seen_default = False
    for f in every:
        if f.init and not f.kw_only:
            if not (f.default is MISSING and f.default_factory is MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _frozen(cls, names: frozenset[str]):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__


def _slot_state(every):
    """Pickling and copying of a frozen class with slots (its ``__setattr__``
    refuses the default way of restoring them)."""
    names = tuple(f.name for f in every)

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
