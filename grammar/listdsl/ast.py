"""The syntax tree of a DSL program. Every node carries its span in the program text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, slots=True)
class Var:
    """A De Bruijn variable ``$n``: the argument ``n`` binders out."""

    index: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Int:
    value: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Prim:
    """A symbol of Table 1.0 other than the integers (``cons``, ``nan``, ``empty``, ...)."""

    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Lam:
    body: "Expr"
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class App:
    """``(f a1 ... an)``: a symbol applied to exactly its arity, or a variable or lambda
    applied to any number of arguments (the type checker decides whether that fits)."""

    fn: "Expr"
    args: tuple["Expr", ...]
    start: int
    end: int


Expr = Union[Var, Int, Prim, Lam, App]


def show(e: Expr) -> str:
    """The canonical text of a program (single spaces, ``empty?`` written ``is_empty``)."""
    if isinstance(e, Var):
        return f"${e.index}"
    if isinstance(e, Int):
        return str(e.value)
    if isinstance(e, Prim):
        return e.name
    if isinstance(e, Lam):
        return f"(lambda {show(e.body)})"
    return "(" + " ".join(show(x) for x in (e.fn, *e.args)) + ")"
