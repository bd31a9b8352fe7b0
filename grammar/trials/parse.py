"""Text -> ``TrialFile``: the Lark JSON grammar (``trials.lark``), then the structure of the
request (keys ``id``, ``program``, ``data``; each datum ``{"i": [...], "o": [...]}``). Problems
come back as diagnostics with spans (kinds ``trial-syntax`` and ``trial-structure``), never raised."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from sylla.grammar.model import Diagnostic, LineIndex, Severity, Span

from .model import Example, IntList, TrialFile

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput


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


@functools.cache
def _parser() -> "Lark":
    from lark import Lark  # noqa: PLC0415 - lazy: start-up (issue 24): detecting a trial file needs no parser

    text = resources.files(__package__).joinpath("trials.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


@dataclass(frozen=True, slots=True)
class _Node:
    value: Any  # dict[str, (_Node key span, _Node)] / list[_Node] / scalar
    span: Span


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

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        return TrialParse(text, None, [_syntax(exc, text)])
    root = _node(tree)
    diags: list[Diagnostic] = []
    return TrialParse(text, _model(root, diags), diags)


def _syntax(exc: "UnexpectedInput", text: str) -> Diagnostic:
    from lark.exceptions import UnexpectedEOF, UnexpectedToken  # noqa: PLC0415 - lazy: start-up (issue 24)

    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return Diagnostic("trial-syntax", "unexpected end of file", Span(len(text), len(text)), Severity.ERROR)
    if isinstance(exc, UnexpectedToken):
        start = exc.token.start_pos or 0
        return Diagnostic("trial-syntax", f"unexpected {str(exc.token)!r}", Span(start, start + len(exc.token)), Severity.ERROR)
    pos = getattr(exc, "pos_in_stream", 0) or 0
    return Diagnostic("trial-syntax", f"unexpected character {text[pos:pos + 1]!r}", Span(pos, pos + 1), Severity.ERROR)


def _node(t: "Tree | Token") -> _Node:
    from lark import Token  # noqa: PLC0415 - lazy: start-up (issue 24)

    if isinstance(t, Token):  # pragma: no cover - the grammar wraps every terminal
        return _Node(str(t), Span(t.start_pos or 0, t.end_pos or 0))
    span = Span(t.meta.start_pos, t.meta.end_pos) if not t.meta.empty else Span(0, 0)
    kind = t.data
    if kind == "object":
        pairs: dict[str, tuple[Span, _Node]] = {}
        for pair in t.children:
            if pair is None:
                continue
            key_tok: Any = pair.children[0]
            value = pair.children[1]
            pairs.setdefault(json.loads(str(key_tok)), (Span(key_tok.start_pos, key_tok.end_pos), _node(value)))
        return _Node(pairs, span)
    if kind == "array":
        return _Node([_node(c) for c in t.children if c is not None], span)
    tok: Any = t.children[0] if t.children else None
    if kind == "string":
        return _Node(json.loads(str(tok)), Span(tok.start_pos, tok.end_pos))
    if kind == "number":
        s = str(tok)
        return _Node(float(s) if any(c in s for c in ".eE") else int(s), Span(tok.start_pos, tok.end_pos))
    return _Node({"true": True, "false": False, "null": None}[kind], span)


def _model(root: _Node, diags: list[Diagnostic]) -> TrialFile | None:
    def problem(msg: str, span: Span) -> None:
        diags.append(Diagnostic("trial-structure", msg, span, Severity.ERROR))

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
                lists.append(_int_list(item.value[key][1], f'example {k + 1} "{key}"', problem))
            examples.append(Example(k, item.span, lists[0], lists[1]))
    return TrialFile(id_, id_span, program, program_span, tuple(examples), data_span, root.span)


def _int_list(node: _Node, what: str, problem: Any) -> IntList | None:
    if not isinstance(node.value, list):
        problem(f"{what} must be a list of integers", node.span)
        return None
    values: list[int | None] = []
    for el in node.value:
        ok = isinstance(el.value, int) and not isinstance(el.value, bool)
        if not ok:
            problem(f"{what}: {json.dumps(el.value) if not isinstance(el.value, (dict, list)) else 'a nested value'} is not an integer", el.span)
        values.append(el.value if ok else None)
    return IntList(tuple(values), tuple(el.span for el in node.value), node.span)
