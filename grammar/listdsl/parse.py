"""Text -> syntax tree: the Lark grammar (``listdsl.lark``), then the checks the grammar
leaves to code: known symbols, arities, integer range, variables bound by a lambda."""

from __future__ import annotations

import functools
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .ast import App, Expr, Int, Lam, Prim, Var
from .errors import DslError
from .symbols import ALIASES, SYMBOLS


@functools.cache
def _parser() -> Lark:
    text = resources.files(__package__).joinpath("listdsl.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


@functools.lru_cache(maxsize=65536)
def parse_program(text: str, max_int: int = 99) -> Expr:
    """The syntax tree of ``text``; raises ``DslError`` (with the span) when it is not a
    program of the DSL whose integers are 0..``max_int``. Cached: deliveries repeat programs."""
    if not text.strip():
        raise DslError("empty program", 0, len(text))
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF:
        raise DslError("unexpected end of program (a parenthesis is not closed)", len(text), len(text)) from None
    except UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        raise DslError(f"unexpected character {text[pos]!r}", pos, pos + 1) from None
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            raise DslError("unexpected end of program (a parenthesis is not closed)", len(text), len(text)) from None
        start = tok.start_pos or 0
        what = "')'" if tok.type == "RPAR" else repr(str(tok))
        raise DslError(f"unexpected {what}", start, start + len(tok)) from None
    except UnexpectedInput as exc:  # pragma: no cover - the three above are exhaustive for LALR
        raise DslError(str(exc).splitlines()[0], 0, len(text)) from None
    return _build(tree, max_int, 0, head=False)


def _build(node: Tree | Token, max_int: int, depth: int, head: bool) -> Expr:
    if isinstance(node, Token):  # a lone atom at the top (``?start: expr`` inlines it)
        return _atom(node.type, node, max_int, depth, head)
    if node.data in ("var", "int", "name"):
        tok = node.children[0]
        assert isinstance(tok, Token)
        return _atom(node.data.upper(), tok, max_int, depth, head)
    start, end = node.meta.start_pos, node.meta.end_pos
    if node.data == "lam":
        return Lam(_build(node.children[0], max_int, depth + 1, False), start, end)
    fn_node, *arg_nodes = node.children
    fn = _build(fn_node, max_int, depth, head=True)
    args = tuple(_build(a, max_int, depth, False) for a in arg_nodes)
    if isinstance(fn, Prim):
        arity = SYMBOLS[fn.name][0]
        if len(args) != arity:
            raise DslError(f"{fn.name} takes {arity} argument{'s' if arity != 1 else ''}, not {len(args)}", start, end, "arity")
    elif isinstance(fn, Int):
        raise DslError(f"{fn.value} is an integer, not a function", fn.start, fn.end, "arity")
    return App(fn, args, start, end)


def _atom(kind: str, tok: Token, max_int: int, depth: int, head: bool) -> Expr:
    start = tok.start_pos or 0
    end = start + len(tok)
    text = str(tok)
    if kind == "VAR":
        index = int(text[1:])
        if index >= depth:
            bound = "no variable is bound here" if depth == 0 else ("only $0 is bound here" if depth == 1 else f"only $0..${depth - 1} are bound here")
            raise DslError(f"{text} is not bound by a lambda ({bound})", start, end, "scope")
        return Var(index, start, end)
    if kind == "INT":
        value = int(text)
        if value > max_int or (len(text) > 1 and text[0] == "0"):
            raise DslError(f"{text} is not a constant of this DSL (integers 0..{max_int})", start, end, "range")
        return Int(value, start, end)
    name = ALIASES.get(text, text)
    if name not in SYMBOLS:
        raise DslError(f"unknown symbol {text!r} (not in the DSL's Table 1.0)", start, end, "symbol")
    if SYMBOLS[name][0] and not head:
        raise DslError(f"{name} takes {SYMBOLS[name][0]} arguments; write ({name} ...)", start, end, "arity")
    return Prim(name, start, end)
