"""Text -> ``TrialFile``: the Lark JSON grammar (``trials.lark``), then the structure of the
request (keys ``id``, ``program``, ``data``; each datum ``{"i": [...], "o": [...]}``). Problems
come back as diagnostics with spans (kinds ``trial-syntax`` and ``trial-structure``), never raised.

The parser builds the nodes below as it reduces (Lark's inline transformer), not a parse tree
first: a tree node with its positions costs some 400 bytes per JSON value, which made a 6 MB
file take 2.3 GB. Nesting is counted by the lexer and refused past ``MAX_DEPTH`` at the bracket
that goes too deep, and integer literals too long to convert are kept as ``LongInt``: a trial
file holds small integers four levels deep, and anything far beyond that is a finding, never a
``RecursionError`` or ``ValueError`` out of a walk or a conversion.
"""

from __future__ import annotations

import functools
import json
import threading
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from sylla.grammar.core import Diagnostic, LineIndex, Severity, Span

from .model import MAX_DIGITS, Example, IntList, LongInt, TrialFile

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

#: how deep brackets may nest: a trial file needs 4 (the object, ``data``, an example, its lists);
#: deeper values are reported as nested values up to here, and the parse stops past it
MAX_DEPTH = 16
#: diagnostics of one kind said one by one before the rest are counted in one more
MAX_SAID = 100


@dataclass
class TrialParse:
    """What the linter and explain read: the text, its line index, the model (None when the
    JSON is broken) and the diagnostics. Shaped like the syllabus ``ParseResult``."""

    text: str
    model: TrialFile | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @functools.cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)

    @property
    def syntax_ok(self) -> bool:
        return self.model is not None

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


@dataclass(frozen=True, slots=True)
class _Node:
    value: Any  # dict[str, (key span, _Node)] / list[_Node] / scalar / LongInt
    span: Span


class _TooDeep(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


#: the open brackets of the parse running on this thread (the lexer's callbacks count them)
_depth = threading.local()


def _opened(tok: "Token") -> "Token":
    _depth.n += 1
    if _depth.n > MAX_DEPTH:
        raise _TooDeep(tok.start_pos or 0)
    return tok


def _closed(tok: "Token") -> "Token":
    _depth.n -= 1
    return tok


class _Build:
    """Lark's inline transformer: each rule's node from its children as the parser reduces.
    A plain class (Lark asks only for the methods), so importing this module loads no lark."""

    @staticmethod
    def number(children: list[Token]) -> _Node:
        tok = children[0]
        s = str(tok)
        span = Span(tok.start_pos or 0, tok.end_pos or 0)
        if any(c in s for c in ".eE"):
            return _Node(float(s), span)
        digits = len(s) - (s[0] == "-")
        return _Node(LongInt(digits, s[0] == "-") if digits > MAX_DIGITS else int(s), span)

    @staticmethod
    def string(children: list[Token]) -> _Node:
        tok = children[0]
        return _Node(json.loads(str(tok)), Span(tok.start_pos or 0, tok.end_pos or 0))

    @staticmethod
    def true(children: list[Token]) -> _Node:
        return _literal(children[0], True)

    @staticmethod
    def false(children: list[Token]) -> _Node:
        return _literal(children[0], False)

    @staticmethod
    def null(children: list[Token]) -> _Node:
        return _literal(children[0], None)

    @staticmethod
    def pair(children: list[Any]) -> tuple[str, Span, _Node]:
        key, value = children
        return json.loads(str(key)), Span(key.start_pos or 0, key.end_pos or 0), value

    @staticmethod
    def object(children: list[Any]) -> _Node:
        pairs: dict[str, tuple[Span, _Node]] = {}
        for key, key_span, value in children[1:-1]:
            pairs.setdefault(key, (key_span, value))
        return _Node(pairs, Span(children[0].start_pos or 0, children[-1].end_pos or 0))

    @staticmethod
    def array(children: list[Any]) -> _Node:
        return _Node(children[1:-1], Span(children[0].start_pos or 0, children[-1].end_pos or 0))


def _literal(tok: "Token", value: bool | None) -> _Node:
    return _Node(value, Span(tok.start_pos or 0, tok.end_pos or 0))


@functools.cache
def _parser() -> "Lark":
    from lark import Lark  # noqa: PLC0415 - lazy: start-up (issue 24): detecting a trial file needs no parser

    text = resources.files(__package__).joinpath("trials.lark").read_text(encoding="utf-8")
    callbacks = {"LSQB": _opened, "LBRACE": _opened, "RSQB": _closed, "RBRACE": _closed}
    return Lark(text, parser="lalr", transformer=_Build(), maybe_placeholders=False, lexer_callbacks=callbacks)


def parse(data: bytes | str, path: str | None = None) -> TrialParse:
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            text = data.decode("utf-8", errors="replace")
            return TrialParse(text, None, [Diagnostic("trial-syntax", f"not UTF-8 (byte {exc.start})", Span(exc.start, exc.start + 1), Severity.ERROR)])
    else:
        text = data
    from lark.exceptions import UnexpectedInput  # noqa: PLC0415 - lazy: start-up (issue 24)

    _depth.n = 0
    try:
        root: _Node = _parser().parse(text)  # type: ignore[assignment]  # the inline transformer (_Build) returns its nodes, not a Tree
    except UnexpectedInput as exc:
        return TrialParse(text, None, [_syntax(exc, text)])
    except _TooDeep as exc:
        message = (f"values nest more than {MAX_DEPTH} levels deep here; a trial file needs 4 (its object, "
                   "data, an example, the example's lists), and sylla stops reading at this bracket")
        return TrialParse(text, None, [Diagnostic("trial-structure", message, Span(exc.offset, exc.offset + 1), Severity.ERROR)])
    problems = _Problems()
    model = _model(root, problems, text)
    return TrialParse(text, model, problems.diagnostics())


def _syntax(exc: "UnexpectedInput", text: str) -> Diagnostic:
    from lark.exceptions import UnexpectedEOF, UnexpectedToken  # noqa: PLC0415 - lazy: start-up (issue 24)

    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return Diagnostic("trial-syntax", "unexpected end of file", Span(len(text), len(text)), Severity.ERROR)
    if isinstance(exc, UnexpectedToken):
        start = exc.token.start_pos or 0
        shown = str(exc.token)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return Diagnostic("trial-syntax", f"unexpected {shown!r}", Span(start, start + len(exc.token)), Severity.ERROR)
    pos = getattr(exc, "pos_in_stream", 0) or 0
    return Diagnostic("trial-syntax", f"unexpected character {text[pos:pos + 1]!r}", Span(pos, pos + 1), Severity.ERROR)


class _Problems:
    """The structure problems of one file: the first ``MAX_SAID`` one by one, then one more that
    counts the rest and stands at the first of them. A file with a million bad values gets a
    bounded report (and holds a bounded list while it is read), not a million lines."""

    def __init__(self) -> None:
        self.said: list[Diagnostic] = []
        self.more = 0
        self.first_unsaid: Diagnostic | None = None

    def __call__(self, message: str, span: Span) -> None:
        if len(self.said) < MAX_SAID:
            self.said.append(Diagnostic("trial-structure", message, span, Severity.ERROR))
            return
        self.more += 1
        if self.first_unsaid is None:
            self.first_unsaid = Diagnostic("trial-structure", message, span, Severity.ERROR)

    def diagnostics(self) -> list[Diagnostic]:
        if self.first_unsaid is None:
            return self.said
        first = self.first_unsaid
        message = (f"{self.more:,} more structure problem{'s' if self.more > 1 else ''} after these {MAX_SAID}; "
                   f"the first: {first.message}")
        return [*self.said, Diagnostic(first.kind, message, first.span, first.severity)]


def _model(root: _Node, problem: _Problems, text: str) -> TrialFile | None:
    if not isinstance(root.value, dict):
        problem("a trial file is a JSON object with id, program and data", root.span)
        return None
    obj: dict[str, tuple[Span, _Node]] = root.value
    head = Span(root.span.start, root.span.start + 1)

    def string(key: str) -> tuple[str | None, Span]:
        if key not in obj:
            problem(f'missing key "{key}"', head)
            return None, head
        node = obj[key][1]
        if not isinstance(node.value, str):
            problem(f'"{key}" must be a string', node.span)
            return None, node.span
        return node.value, node.span

    id_, id_span = string("id")
    program, program_span = string("program")
    examples: list[Example] = []
    data_span = head
    if "data" not in obj:
        problem('missing key "data"', head)
    elif not isinstance(obj["data"][1].value, list):
        problem('"data" must be a list of {"i": [...], "o": [...]}', obj["data"][1].span)
        data_span = obj["data"][1].span
    else:
        data_span = obj["data"][1].span
        for k, item in enumerate(obj["data"][1].value):
            if not isinstance(item.value, dict):
                problem(f'example {k + 1} must be an object {{"i": [...], "o": [...]}}', item.span)
                examples.append(Example(k, item.span, None, None))
                continue
            lists: list[IntList | None] = []
            for key in ("i", "o"):
                if key not in item.value:
                    problem(f'example {k + 1} has no "{key}"', item.span)
                    lists.append(None)
                    continue
                lists.append(_int_list(item.value[key][1], f'example {k + 1} "{key}"', problem, text))
            examples.append(Example(k, item.span, lists[0], lists[1]))
    return TrialFile(id_, id_span, program, program_span, tuple(examples), data_span, root.span)


def _int_list(node: _Node, what: str, problem: _Problems, text: str) -> IntList | None:
    if not isinstance(node.value, list):
        problem(f"{what} must be a list of integers", node.span)
        return None
    values: list[int | LongInt | None] = []
    for el in node.value:
        v = el.value
        if isinstance(v, LongInt) or (isinstance(v, int) and not isinstance(v, bool)):
            values.append(v)
            continue
        shown = "a nested value" if isinstance(v, (dict, list)) else text[el.span.start:min(el.span.end, el.span.start + 41)]
        problem(f"{what}: {shown if len(shown) <= 40 else shown[:37] + '...'} is not an integer", el.span)
        values.append(None)
    return IntList(tuple(values), tuple(el.span for el in node.value), node.span)
