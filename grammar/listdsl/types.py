"""Hindley-Milner types for the DSL (Table 1.2): ``int``, ``bool``, lists ``[t]``, arrows and
type variables, with unification over one mutable substitution (algorithm J).

There is no ``let`` in the DSL, so nothing is generalised: only the symbols of Table 1.0 are
polymorphic, and each use instantiates fresh variables.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TypeGuard, Union

from .ast import Expr, Int, Lam, Prim, Var
from .errors import DslError
from .symbols import SYMBOLS


@dataclass(frozen=True, slots=True)
class TVar:
    id: int


@dataclass(frozen=True, slots=True)
class TCon:
    """``int``, ``bool``, ``list`` (one argument) or ``->`` (argument, result)."""

    name: str
    args: tuple["Type", ...] = ()


Type = Union[TVar, TCon]
INT, BOOL = TCon("int"), TCon("bool")


def lst(t: Type) -> TCon:
    return TCon("list", (t,))


def arrow(a: Type, b: Type) -> TCon:
    return TCon("->", (a, b))


def is_arrow(t: Type) -> TypeGuard[TCon]:
    """Whether ``t`` is a function type (a ``->`` constructor, whose ``args`` are the argument and the result)."""
    return isinstance(t, TCon) and t.name == "->"


#: the type every program of the wave-3 problems must have
PROGRAM_TYPE = arrow(lst(INT), lst(INT))


def parse_type(text: str) -> tuple[Type, int]:
    """The type written ``text`` (``t0 -> [t1] -> t1``) with its variables numbered from 0,
    and how many variables it has."""
    tokens = re.findall(r"->|\[|\]|\(|\)|[A-Za-z_][A-Za-z0-9_]*", text)
    names: dict[str, int] = {}
    pos = 0

    def atom() -> Type:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            t = arrows()
            pos += 1
            return t
        if tok == "[":
            t = arrows()
            pos += 1
            return lst(t)
        if tok in ("int", "bool"):
            return TCon(tok)
        return TVar(names.setdefault(tok, len(names)))

    def arrows() -> Type:
        nonlocal pos
        left = atom()
        if pos < len(tokens) and tokens[pos] == "->":
            pos += 1
            return arrow(left, arrows())
        return left

    return arrows(), len(names)


@functools.cache
def symbol_scheme(name: str) -> tuple[Type, int]:
    return parse_type(SYMBOLS[name][1])


class Context:
    """Fresh type variables and the substitution found so far."""

    __slots__ = ("next", "subst")

    def __init__(self) -> None:
        self.next = 0
        self.subst: dict[int, Type] = {}

    def fresh(self) -> TVar:
        self.next += 1
        return TVar(self.next - 1)

    def instantiate(self, t: Type, count: int) -> Type:
        if count == 0:
            return t
        base = self.next
        self.next += count
        return _shift(t, base)

    def resolve(self, t: Type) -> Type:
        """``t`` with every bound variable replaced, recursively."""
        if isinstance(t, TVar):
            bound = self.subst.get(t.id)
            return t if bound is None else self.resolve(bound)
        if not t.args:
            return t
        return TCon(t.name, tuple(self.resolve(a) for a in t.args))

    def unify(self, a: Type, b: Type) -> bool:
        """Extend the substitution so that ``a`` and ``b`` are equal; False (substitution
        possibly partly extended: callers copy first when they only probe) when impossible."""
        a, b = self._walk(a), self._walk(b)
        if isinstance(a, TVar):
            if isinstance(b, TVar) and b.id == a.id:
                return True
            if self._occurs(a.id, b):
                return False
            self.subst[a.id] = b
            return True
        if isinstance(b, TVar):
            return self.unify(b, a)
        if a.name != b.name or len(a.args) != len(b.args):
            return False
        return all(self.unify(x, y) for x, y in zip(a.args, b.args))

    def copy(self) -> "Context":
        c = Context()
        c.next, c.subst = self.next, dict(self.subst)
        return c

    def _walk(self, t: Type) -> Type:
        while isinstance(t, TVar) and t.id in self.subst:
            t = self.subst[t.id]
        return t

    def _occurs(self, v: int, t: Type) -> bool:
        t = self._walk(t)
        if isinstance(t, TVar):
            return t.id == v
        return any(self._occurs(v, a) for a in t.args)


def _shift(t: Type, base: int) -> Type:
    if isinstance(t, TVar):
        return TVar(t.id + base)
    return TCon(t.name, tuple(_shift(a, base) for a in t.args)) if t.args else t


def show_type(t: Type) -> str:
    """Written as in Table 1.2 (``[int] → [int]``); variables renamed t0, t1, ... in order."""
    names: dict[int, str] = {}

    def go(t: Type, left: bool) -> str:
        if isinstance(t, TVar):
            return names.setdefault(t.id, f"t{len(names)}")
        if t.name == "list":
            return f"[{go(t.args[0], False)}]"
        if t.name == "->":
            s = f"{go(t.args[0], True)} → {go(t.args[1], False)}"
            return f"({s})" if left else s
        return t.name

    return go(t, False)


def infer(expr: Expr, ctx: Context | None = None, env: tuple[Type, ...] = ()) -> Type:
    """The principal type of ``expr`` (resolved); raises ``DslError`` (kind ``type``) at the
    innermost node whose type does not fit."""
    ctx = ctx or Context()
    return ctx.resolve(_infer(expr, ctx, env))


def _infer(e: Expr, ctx: Context, env: tuple[Type, ...]) -> Type:
    if isinstance(e, Var):
        return env[e.index]
    if isinstance(e, Int):
        return INT
    if isinstance(e, Prim):
        return ctx.instantiate(*symbol_scheme(e.name))
    if isinstance(e, Lam):
        a = ctx.fresh()
        return arrow(a, _infer(e.body, ctx, (a, *env)))
    f = _infer(e.fn, ctx, env)
    for arg in e.args:
        t_arg = _infer(arg, ctx, env)
        result = ctx.fresh()
        if not ctx.unify(f, arrow(t_arg, result)):
            fr = ctx.resolve(f)
            if is_arrow(fr):
                want = fr.args[0]
                raise DslError(f"expected {show_type(want)}, found {show_type(ctx.resolve(t_arg))}", arg.start, arg.end, "type")
            raise DslError(f"{show_type(fr)} is not a function; it cannot take another argument", arg.start, arg.end, "type")
        f = result
    return f


def check_program(expr: Expr) -> None:
    """Raise ``DslError`` unless ``expr`` has type ``[int] → [int]`` (every wave-3 problem's)."""
    ctx = Context()
    if isinstance(expr, Lam):  # the input is known to be [int]: errors land inside the body
        body = _infer(expr.body, ctx, (lst(INT),))
        if not ctx.unify(body, lst(INT)):
            raise DslError(f"the program's result must be [int], this one is {show_type(ctx.resolve(body))}", expr.body.start, expr.body.end, "type")
        return
    t = _infer(expr, ctx, ())
    if not ctx.unify(t, PROGRAM_TYPE):
        raise DslError(f"a program must have type [int] → [int], this one has {show_type(ctx.resolve(t))}", expr.start, expr.end, "type")
