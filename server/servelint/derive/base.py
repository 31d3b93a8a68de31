"""The values derive functions answer with.

``Derived`` is a value vLLM ends up with and how servelint knows it;
``UNKNOWN`` says the file does not show it, and a rule that needs it stays
silent (the evidence policy, docs/rules.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..knowledge.versions import version_key

class Value:
    """A value object of the rules, compared and shown like a dataclass
    over the names in ``_fields``.  Not a @dataclass: making one compiles
    its generated methods at import, ~1 ms per class of a cold check whose
    whole budget is 150 ms.  Unhashable, like a dataclass with ``eq``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


class FrozenValue(Value):
    """A ``Value`` that cannot change after ``__init__`` (which sets its
    fields with ``object.__setattr__``), hashable, like a frozen dataclass."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class Derived(FrozenValue):
    """A value vLLM ends up with, and how servelint knows it.

    ``value`` None means unknown.  ``how`` is "flag" (written in the launch),
    "env", "default" (the release's default for this model) or "platform";
    ``why`` is a short clause for messages ("prefix caching is on by default
    for hybrid models in vLLM 0.28.0").  ``flags`` are the written flags that
    decided the value, for ``related`` locations and fixes.
    """

    __slots__ = _fields = ("value", "how", "why", "flags")

    def __init__(self, value: Any, how: str = "unknown", why: str = "", flags: tuple = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "value", value)
        setattr_(self, "how", how)
        setattr_(self, "why", why)
        setattr_(self, "flags", flags)

    @property
    def known(self) -> bool:
        return self.value is not None


UNKNOWN = Derived(None)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def at_least(version: str, floor: str) -> bool:
    """Whether ``version`` is ``floor`` or a later release."""
    return version_key(version) >= version_key(floor)
