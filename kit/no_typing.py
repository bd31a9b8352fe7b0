"""What the lint path takes from ``typing`` at run time, without importing ``typing``.

``import typing`` is 12.5M instructions, 14% of a whole ``python -c pass``, and ``sylla lint``
on one small file has twice that in all (issue 24). Every module a small lint loads writes its
annotations as strings (``from __future__ import annotations``) and imports what they name
under ``if TYPE_CHECKING:``, which type checkers read as true whatever module the name comes
from. What is left is used at run time and is given here in its smallest working form:

- ``TYPE_CHECKING``: False, as ``typing.TYPE_CHECKING`` is at run time;
- ``Generic`` and ``Protocol``: a base class that can be subscripted (``Generic[P, C]`` is the
  class itself), for the classes the type checker sees as generic or as protocols;
- ``TypeVar``: the variable's name, which is all the subscripts above need;
- ``dataclass_transform``: the decorator that only type checkers read.

A module imports these in the ``else`` branch of its ``if TYPE_CHECKING:``, so that the type
checker sees ``typing``'s own.
"""

from __future__ import annotations

TYPE_CHECKING = False


class Generic:
    """A class that ``typing.Generic[...]`` or ``typing.Protocol`` stands for at run time."""

    __slots__ = ()

    def __class_getitem__(cls, params: object) -> type:
        return cls


Protocol = Generic


def TypeVar(name: str, *constraints: object, **options: object) -> str:
    """``typing.TypeVar`` as far as a subscript needs it: the name."""
    return name


def dataclass_transform(**options: object) -> object:
    """``typing.dataclass_transform``: leaves the decorator as it is."""
    return lambda decorator: decorator
