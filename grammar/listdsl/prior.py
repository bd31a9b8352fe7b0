"""The request's prior (wave3-online-trials-request.md, *prior*) and log likelihood.

The prior is that of a generator that writes the program top-down, left to right:

1. where an arrow type is required, it writes ``(lambda ...)`` with probability 1 and goes on
   with the result type, the argument bound as ``$0``;
2. elsewhere it chooses among the *candidates*: every symbol of Table 1.0 (and every integer
   constant of the problem's range) and every variable in scope whose result type, after
   taking all its arguments, unifies with the required type. A candidate with arguments
   weighs 1.0, a terminal (arity 0: integers, ``nan``, ``true``, ``false``, ``empty``, every
   variable) weighs 10.0; the chosen one has probability weight / sum of the weights;
3. the chosen candidate's type is unified with the requirement and its arguments are written
   left to right, each with its argument type as the requirement.

nlp is minus the sum of the logs of the chosen probabilities. ``docs/trials.md`` works an
example by hand. Programs outside this generator's reach (a lambda applied directly, an
arrow-typed position filled by something other than a lambda) have no prior: ``DslError``
of kind ``prior``.
"""

from __future__ import annotations

import functools
import math

from .ast import App, Expr, Int, Lam, Prim, Var
from .errors import DslError
from .symbols import SYMBOLS
from .types import INT, PROGRAM_TYPE, Context, Type, is_arrow, show_type, symbol_scheme

NONTERMINAL_WEIGHT, TERMINAL_WEIGHT = 1.0, 10.0

#: the likelihood's alpha (request, *log likelihood*): exp(-0.07043928) ≈ 0.93198433
ALPHA = math.exp(-0.07043928)
LOG_HIT, LOG_MISS = math.log(ALPHA), math.log(1.0 - ALPHA)


def _strip(t: Type, ctx: Context) -> tuple[Type, list[Type]]:
    """Result and argument types of ``t``, taking every arrow."""
    args: list[Type] = []
    t = ctx.resolve(t)
    while is_arrow(t):
        args.append(t.args[0])
        t = t.args[1]
    return t, args


def _fits(result: Type, request: Type, ctx: Context) -> bool:
    return ctx.copy().unify(result, request)


def _symbol_weight(name: str) -> float:
    return NONTERMINAL_WEIGHT if SYMBOLS[name][0] else TERMINAL_WEIGHT


def _total(request: Type, env: tuple[Type, ...], ctx: Context, max_int: int) -> float:
    total = 0.0
    resolved = ctx.resolve(request)
    if _fits(INT, resolved, ctx):
        total += TERMINAL_WEIGHT * (max_int + 1)  # the integer constants 0..max_int
    for name, (arity, _) in SYMBOLS.items():
        t = ctx.instantiate(*symbol_scheme(name))
        result = _nth_result(t, arity)
        if _fits(result, resolved, ctx):
            total += _symbol_weight(name)
    for t in env:
        result, _ = _strip(t, ctx)
        if _fits(result, resolved, ctx):
            total += TERMINAL_WEIGHT
    return total


def _nth_result(t: Type, n: int) -> Type:
    for _ in range(n):
        t = t.args[1]  # type: ignore[union-attr]  # the caller counted n arrows in t: each step is a TCon
    return t


def _walk(e: Expr, request: Type, env: tuple[Type, ...], ctx: Context, max_int: int) -> float:
    request = ctx.resolve(request)
    if is_arrow(request):
        if not isinstance(e, Lam):
            raise DslError(f"a function ({show_type(request)}) is required here, so the prior expects a lambda", e.start, e.end, "prior")
        arg, result = request.args
        return _walk(e.body, result, (arg, *env), ctx, max_int)
    head, args = (e.fn, e.args) if isinstance(e, App) else (e, ())
    if isinstance(head, Lam):
        raise DslError("a lambda applied directly is outside the prior's generator", head.start, head.end, "prior")
    total = _total(request, env, ctx, max_int)
    arg_types: list[Type] = []
    if isinstance(head, Int):
        weight, result = TERMINAL_WEIGHT, INT
    elif isinstance(head, Prim):
        t = ctx.instantiate(*symbol_scheme(head.name))
        arity = SYMBOLS[head.name][0]
        for _ in range(arity):
            arg_types.append(t.args[0])  # type: ignore[union-attr]  # a primitive's scheme has one arrow per argument: t is a TCon here
            t = t.args[1]  # type: ignore[union-attr]  # as above
        weight, result = _symbol_weight(head.name), t
    else:  # a variable (the parser allows nothing else in head position), applied to all its arguments
        assert isinstance(head, Var)
        result, arg_types = _strip(env[head.index], ctx)
        weight = TERMINAL_WEIGHT
        if len(arg_types) != len(args):
            raise DslError(f"${head.index} takes {len(arg_types)} arguments here, not {len(args)}", e.start, e.end, "prior")
    if not ctx.unify(result, request):
        raise DslError(f"expected {show_type(ctx.resolve(request))}, found {show_type(ctx.resolve(result))}", e.start, e.end, "type")
    cost = math.log(total) - math.log(weight)
    for a, t in zip(args, arg_types):
        cost += _walk(a, t, env, ctx, max_int)
    return cost


@functools.lru_cache(maxsize=65536)
def nlp(expr: Expr, max_int: int = 99, request: Type = PROGRAM_TYPE) -> float:
    """The negative log prior of ``expr`` as a program of type ``request`` in the DSL whose
    integers are 0..``max_int``; raises ``DslError`` when the generator cannot write it."""
    return _walk(expr, request, (), Context(), max_int)


def nll(hits: int, misses: int) -> float:
    """Minus the request's log likelihood: each training example the program gets right adds
    ln α, each one it gets wrong (or fails on) ln(1 − α)."""
    return -(hits * LOG_HIT + misses * LOG_MISS)
