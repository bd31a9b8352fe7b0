"""The evaluator: the definitions of the DSL text, compiled once per program into Python
closures, run under a step budget.

Values: ``int`` for 0..max, the ``NAN`` singleton for an out-of-bounds number, ``bool``,
tuples for lists, Python callables for functions. Arithmetic outside 0..max gives ``NAN``
(``+ 9 9 = nan``, ``- 2 3 = nan``) and ``NAN`` is absorbing in ``+`` and ``-``; ``>`` with a
``NAN`` operand is ``false`` (the text defines no order on it); ``is_equal nan nan`` is
``true`` (the two are the same constant). ``head``/``tail`` of ``empty`` and an exhausted step
budget end the evaluation with an ``EvalError`` value; they never raise out of ``run``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from .ast import Expr, Int, Lam, Prim, Var


class _Nan:
    __slots__ = ()

    def __repr__(self) -> str:
        return "nan"


NAN: Any = _Nan()

#: steps (applications and symbol calls) one evaluation may take before it is cut off
DEFAULT_BUDGET = 20_000


@dataclass(frozen=True, slots=True)
class EvalError:
    """An evaluation that produced no value: ``reason`` is ``head-of-empty``,
    ``tail-of-empty``, ``budget`` (step budget exhausted) or ``not-a-list``."""

    reason: str

    def __str__(self) -> str:
        return {
            "head-of-empty": "head of empty", "tail-of-empty": "tail of empty",
            "budget": "step budget exhausted (fix does not terminate)",
            "not-a-list": "the result is not a list of integers",
        }.get(self.reason, self.reason)


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


class _State:
    __slots__ = ("steps",)

    def __init__(self, budget: int) -> None:
        self.steps = budget

    def tick(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _Stop("budget")


Code = Callable[[tuple, _State], Any]


def _head(xs: Any) -> Any:
    if not xs:
        raise _Stop("head-of-empty")
    return xs[0]


def _tail(xs: Any) -> Any:
    if not xs:
        raise _Stop("tail-of-empty")
    return xs[1:]


def _compile(e: Expr, max_int: int) -> Code:
    if isinstance(e, Var):
        i = e.index
        return lambda env, st: env[i]
    if isinstance(e, Int):
        v = e.value
        return lambda env, st: v
    if isinstance(e, Prim):
        return _constant(e.name)
    if isinstance(e, Lam):
        body = _compile(e.body, max_int)

        def lam(env: tuple, st: _State) -> Any:
            return lambda x: body((x, *env), st)

        return lam
    args = [_compile(a, max_int) for a in e.args]
    if isinstance(e.fn, Prim):
        return _call(e.fn.name, args, max_int)
    fn = _compile(e.fn, max_int)

    def apply(env: tuple, st: _State) -> Any:
        st.tick()
        f = fn(env, st)
        for a in args:
            f = f(a(env, st))
        return f

    return apply


def _constant(name: str) -> Code:
    value = {"nan": NAN, "true": True, "false": False, "empty": ()}[name]
    return lambda env, st: value


def _call(name: str, args: list[Code], max_int: int) -> Code:
    if name == "if":
        c, a, b = args

        def if_(env: tuple, st: _State) -> Any:
            st.tick()
            return a(env, st) if c(env, st) is True else b(env, st)

        return if_
    if name == "fix":
        x, f = args

        def fix(env: tuple, st: _State) -> Any:
            st.tick()
            fv = f(env, st)

            def rec(arg: Any) -> Any:  # fix f x = f (fix f) x
                st.tick()
                return fv(rec)(arg)

            return rec(x(env, st))

        return fix
    op: Callable[..., Any] = _OPS.get(name, _minus)  # "+" needs max_int: below
    if len(args) == 1:
        (a,) = args

        def unary(env: tuple, st: _State) -> Any:
            st.tick()
            return op(a(env, st))

        return unary
    a, b = args
    if name == "+":
        def plus(env: tuple, st: _State) -> Any:
            st.tick()
            x, y = a(env, st), b(env, st)
            if x is NAN or y is NAN:
                return NAN
            s = x + y
            return s if s <= max_int else NAN

        return plus

    def binary(env: tuple, st: _State) -> Any:
        st.tick()
        return op(a(env, st), b(env, st))

    return binary


def _minus(x: Any, y: Any) -> Any:
    if x is NAN or y is NAN:
        return NAN
    d = x - y
    return d if d >= 0 else NAN


def _greater(x: Any, y: Any) -> bool:
    return x is not NAN and y is not NAN and x > y


def _cons(x: Any, xs: tuple) -> tuple:
    return (x, *xs)


_OPS: dict[str, Callable[..., Any]] = {
    "cons": _cons, "-": _minus, ">": _greater, "head": _head, "tail": _tail,
    "is_empty": lambda xs: not xs, "is_equal": lambda x, y: x == y,
}


@functools.lru_cache(maxsize=65536)
def compile_program(expr: Expr, max_int: int = 99) -> Code:
    return _compile(expr, max_int)


def compile_uncached(expr: Expr, max_int: int = 99) -> Code:
    return _compile(expr, max_int)


def run(expr: Expr, inputs: list[int] | tuple[int, ...], max_int: int = 99, budget: int = DEFAULT_BUDGET) -> tuple | EvalError:
    """The program applied to ``inputs``: a tuple of ints (``NAN`` where out of bounds), or an
    ``EvalError`` value. The program must be well typed as ``[int] → [int]``."""
    return run_code(compile_program(expr, max_int), inputs, budget)


def run_code(code: Code, inputs: list[int] | tuple[int, ...], budget: int = DEFAULT_BUDGET) -> tuple | EvalError:
    """``run`` for a program compiled once by the caller (``_compile``), which saves hashing
    the syntax tree on every call when one program meets many inputs."""
    st = _State(budget)
    try:
        f = code((), st)
        out = f(tuple(inputs)) if callable(f) else f
    except _Stop as stop:
        return EvalError(stop.reason)
    except RecursionError:
        return EvalError("budget")  # deep non-terminating recursion ends like the budget does
    if not isinstance(out, tuple):
        return EvalError("not-a-list")
    return out


def show_value(v: Any) -> str:
    """A list as the deliverables write it: ``[1,2,3]`` (``nan`` for out-of-bounds numbers)."""
    if type(v) is tuple and all(type(x) is int for x in v):
        return "[" + ",".join(map(str, v)) + "]"
    if isinstance(v, tuple):
        return "[" + ",".join(show_value(x) for x in v) + "]"
    if v is True or v is False:
        return "true" if v else "false"
    return repr(v) if v is NAN else str(v)
