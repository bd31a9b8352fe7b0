"""Text -> syntax tree: the Lark grammar (``listdsl.lark``), then the checks the grammar
leaves to code: known symbols, arities, integer range, variables bound by a lambda.

Parentheses are counted by the lexer and refused past ``MAX_DEPTH``, at the one that goes too
deep: the tree walks after the parse (types, prior, evaluator) recurse once per level, and a
program a thousand levels deep would end in a ``RecursionError`` instead of a finding. Integer
and ``$n`` literals longer than ``MAX_DIGITS`` are out of range without being converted (Python
refuses past 4,300 digits), and programs longer than ``MAX_LENGTH`` are refused before the parse
(a very wide program would hold memory in proportion to its tokens).
"""

from __future__ import annotations

import functools
import threading
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .ast import App, Expr, Int, Lam, Prim, Var
from .errors import DslError
from .symbols import ALIASES, SYMBOLS

#: how deep parentheses may nest; the deepest program of the wave-3 problems nests 12 deep
#: (problem 44 written in this DSL's ``cons`` and ``empty``)
MAX_DEPTH = 100
#: an integer or ``$n`` with more digits than this is out of range without being converted
MAX_DIGITS = 20
#: the longest program read, in characters: the problems' programs need under 300, and a parse
#: holds some hundreds of bytes per token, so a field of megabytes would cost gigabytes
MAX_LENGTH = 20_000

#: the open parentheses of the parse running on this thread (the lexer's callbacks count them)
_depth = threading.local()


class _TooDeep(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def _opened(tok: Token) -> Token:
    _depth.n += 1
    if _depth.n > MAX_DEPTH:
        raise _TooDeep(tok.start_pos or 0)
    return tok


def _closed(tok: Token) -> Token:
    _depth.n -= 1
    return tok


@functools.cache
def _parser() -> Lark:
    text = resources.files(__package__).joinpath("listdsl.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                lexer_callbacks={"LPAR": _opened, "RPAR": _closed})


@functools.lru_cache(maxsize=65536)
def parse_program(text: str, max_int: int = 99) -> Expr:
    """The syntax tree of ``text``; raises ``DslError`` (with the span) when it is not a
    program of the DSL whose integers are 0..``max_int``. Cached: deliveries repeat programs."""
    if not text.strip():
        raise DslError("empty program", 0, len(text))
    if len(text) > MAX_LENGTH:
        deep = _first_too_deep(text[:MAX_LENGTH])
        if deep is not None:
            raise _too_deep(deep)
        raise DslError(f"a program of {len(text):,} characters; sylla reads programs up to {MAX_LENGTH:,} "
                       "(the problems' programs need under 300)", MAX_LENGTH, len(text), "syntax")
    _depth.n = 0
    try:
        tree = _parser().parse(text)
    except _TooDeep as exc:
        raise _too_deep(exc.offset) from None
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
        what = "')'" if tok.type == "RPAR" else repr(_shown(str(tok)))
        raise DslError(f"unexpected {what}", start, start + len(tok)) from None
    except UnexpectedInput as exc:  # pragma: no cover - the three above are exhaustive for LALR
        raise DslError(str(exc).splitlines()[0], 0, len(text)) from None
    return _build(tree, max_int, 0, head=False)


def _too_deep(offset: int) -> DslError:
    return DslError(f"parentheses nest more than {MAX_DEPTH} deep here (the problems' programs need at most 12)",
                    offset, offset + 1, "syntax")


def _first_too_deep(text: str) -> int | None:
    """The offset of the first parenthesis past ``MAX_DEPTH`` in ``text`` (the start of a program
    too long to parse, so that a deep one is still told where it goes too deep)."""
    depth = 0
    for k, c in enumerate(text):
        if c == "(":
            depth += 1
            if depth > MAX_DEPTH:
                return k
        elif c == ")":
            depth -= 1
    return None


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
        index = int(text[1:]) if len(text) <= MAX_DIGITS + 1 else depth
        if index >= depth:
            bound = "no variable is bound here" if depth == 0 else ("only $0 is bound here" if depth == 1 else f"only $0..${depth - 1} are bound here")
            raise DslError(f"{_shown(text)} is not bound by a lambda ({bound})", start, end, "scope")
        return Var(index, start, end)
    if kind == "INT":
        if len(text) > MAX_DIGITS:
            raise DslError(f"an integer of {len(text):,} digits is not a constant of this DSL (integers 0..{max_int})",
                           start, end, "range")
        value = int(text)
        if value > max_int or (len(text) > 1 and text[0] == "0"):
            raise DslError(f"{text} is not a constant of this DSL (integers 0..{max_int})", start, end, "range")
        return Int(value, start, end)
    name = ALIASES.get(text, text)
    if name not in SYMBOLS:
        raise DslError(f"unknown symbol {_shown(text)!r} (not in the DSL's Table 1.0)", start, end, "symbol")
    if SYMBOLS[name][0] and not head:
        raise DslError(f"{name} takes {SYMBOLS[name][0]} arguments; write ({name} ...)", start, end, "arity")
    return Prim(name, start, end)


def _shown(text: str) -> str:
    """A token as a message quotes it: at most 40 characters (a delivery may hold anything)."""
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text):,} characters)"
