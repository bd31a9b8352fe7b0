"""The typed, immutable syllabus model.

The model is what every other part of sylla reads: the linter checks it, the language server
maps it onto editor requests, the schedule flattens it for the metrics. It knows nothing of
editors or reporters: positions are plain code-point offsets into the decoded text, and
`LineIndex` converts them to 1-based line/column at the edge.
"""

from __future__ import annotations

import bisect
from enum import StrEnum
from types import MappingProxyType

from .no_typing import TYPE_CHECKING
from .record import field, record

if TYPE_CHECKING:
    from typing import Any, Literal, Mapping, Sequence

    from .source_map import SourceMap

EMPTY: Mapping[str, Any] = MappingProxyType({})


@record(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of code-point offsets into the decoded text."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset < self.end or (self.start == self.end == offset)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@record(frozen=True, slots=True)
class Related:
    """A second place a diagnostic refers to (the first of two duplicate keys, say)."""

    message: str
    span: Span


@record(frozen=True, slots=True)
class Diagnostic:
    """A problem the language core found: syntax, encoding, nesting or schema.

    ``kind`` is a stable slug (``syntax``, ``unterminated-string``, ``invalid-utf8``,
    ``schema``, ...) that the linter maps to its rule codes; ``message`` is worded for a person.
    For schema problems ``path`` is the JSON path of the offending value and ``keyword`` the
    JSON Schema keyword that failed.
    """

    kind: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    path: tuple[str | int, ...] = ()
    keyword: str | None = None
    related: tuple[Related, ...] = ()


class NonJsonKind(StrEnum):
    """Constructs authors write that an engine loading strict JSON rejects."""

    LINE_COMMENT = "line-comment"
    BLOCK_COMMENT = "block-comment"
    MARGIN_NOTE = "margin-note"
    TRAILING_COMMA = "trailing-comma"
    BOM = "bom"
    FRAGMENT = "fragment"


@record(frozen=True, slots=True)
class NonJson:
    kind: NonJsonKind
    span: Span

    def text(self, source: str) -> str:
        return source[self.span.start : self.span.end]


if TYPE_CHECKING:
    LeafKind = Literal["episode", "dataset"]
    PhaseKind = Literal["train", "test"]
    DocumentForm = Literal["object", "fragment", "array"]
else:  # the names at run time, without importing typing (start-up, issue 24)
    LeafKind = PhaseKind = DocumentForm = str


@record(frozen=True, slots=True)
class PhaseMark:
    """A ``{"$phase": "<n>.<train|test>"}`` instruction.

    ``number`` and ``kind`` are None when the label does not follow the convention (the
    linter reports it); ``enable_updates`` is the optional sibling key published syllabi use.
    """

    index: int
    label: str
    number: int | None
    kind: PhaseKind | None
    enable_updates: bool | None
    span: Span
    path: tuple[str | int, ...] = ()
    source: "SourceMap | None" = field(default=None, compare=False, repr=False)

    @property
    def directive(self) -> str:
        return "$phase"

    @property
    def label_span(self) -> Span:
        return _sub_span(self.source, self.path + ("$phase",), self.span)

    @property
    def enable_updates_span(self) -> Span | None:
        if self.enable_updates is None or self.source is None:
            return None
        return self.source.span(self.path + ("enable_updates",))


@record(frozen=True, slots=True)
class Block:
    """A run of episodes (or batches) of one task with one parameter set.

    A ``$repeat`` gives ``count`` from its sibling key; a bare ``$episode``/``$dataset`` is one
    block of count 1. ``params`` are the merged parameters (``default_params`` overlaid by the
    block's own, which win); ``own_params`` are exactly what the block wrote.
    The task reference is only a name: ``$l2arcadekit.l2agames:Pong`` is task ``Pong`` from
    module ``l2arcadekit.l2agames``. Nothing is ever imported.
    """

    index: int
    task: str
    module: str | None
    task_ref: str
    params: Mapping[str, Any]
    own_params: Mapping[str, Any]
    count: int
    leaf: LeafKind
    repeated: bool
    span: Span
    num_batches: int | None = None
    path: tuple[str | int, ...] = ()
    source: "SourceMap | None" = field(default=None, compare=False, repr=False)

    @property
    def directive(self) -> str:
        return "$repeat" if self.repeated else f"${self.leaf}"

    @property
    def leaf_path(self) -> tuple[str | int, ...]:
        """JSON path of the ``$episode``/``$dataset`` object (inside ``$repeat`` or bare)."""
        return self.path + ("$repeat",) if self.repeated else self.path

    @property
    def leaf_span(self) -> Span:
        return _sub_span(self.source, self.leaf_path, self.span)

    @property
    def task_span(self) -> Span:
        return _sub_span(self.source, self.leaf_path + (f"${self.leaf}",), self.span)

    @property
    def count_span(self) -> Span | None:
        if not self.repeated or self.source is None:
            return None
        return self.source.span(self.path + ("count",))

    def param_span(self, name: str) -> Span | None:
        """Span of one of the block's own parameter values (None for inherited ones)."""
        if name not in self.own_params or self.source is None:
            return None
        return self.source.span(self.leaf_path + (name,))


@record(frozen=True, slots=True)
class Info:
    """A ``{"$info": {...}}`` instruction: ``{"disable_updates": true}`` opens a test phase,
    ``{}`` resets it."""

    index: int
    data: Mapping[str, Any]
    span: Span
    path: tuple[str | int, ...] = ()

    @property
    def disable_updates(self) -> bool | None:
        value = self.data.get("disable_updates")
        return value if isinstance(value, bool) else None

    @property
    def resets(self) -> bool:
        return len(self.data) == 0

    @property
    def directive(self) -> str:
        return "$info"


@record(frozen=True, slots=True)
class Unknown:
    """An instruction that is not a recognised directive (the schema reports why)."""

    index: int
    value: Any
    span: Span
    directives: tuple[str, ...] = ()
    path: tuple[str | int, ...] = ()

    @property
    def directive(self) -> str | None:
        return self.directives[0] if self.directives else None


Instruction = PhaseMark | Block | Info | Unknown


@record(frozen=True, slots=True)
class TopLevelKey:
    """A key of the top-level object, kept with its span so the linter can report unknown ones."""

    name: str
    span: Span
    value_span: Span


class LineIndex:
    """Converts offsets to 1-based line and column (code points) and back.

    Line breaks are ``\\n``, ``\\r\\n`` and a lone ``\\r``, as editors and LSP count them.
    """

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        if "\r" in text:
            i, n = 0, len(text)
            while True:
                j = _next_break(text, i)
                if j < 0:
                    break
                if text[j] == "\r" and j + 1 < n and text[j + 1] == "\n":
                    j += 1
                starts.append(j + 1)
                i = j + 1
        else:
            find = text.find
            j = find("\n")
            while j >= 0:
                starts.append(j + 1)
                j = find("\n", j + 1)
        self.starts = starts

    @classmethod
    def edited(cls, previous: "LineIndex | None", text: str, start: int, old_end: int, new_end: int) -> "LineIndex":
        """The index of ``text``, which is ``previous.text`` with ``[start, old_end)`` replaced
        by ``text[start:new_end]``: the line starts before the edit kept, those after it
        moved, only the edit itself searched (an incremental parse of 500 KB would otherwise
        spend milliseconds finding the same 10,000 line breaks again). Texts with a ``\r``
        are indexed afresh: a ``\r\n`` can be split or joined at the edit's edges."""
        if previous is None or "\r" in text or "\r" in previous.text:
            return cls(text)
        old = previous.starts
        starts = old[: bisect.bisect_right(old, start)]
        find = text.find
        j = find("\n", start, new_end)
        while j >= 0:
            starts.append(j + 1)
            j = find("\n", j + 1, new_end)
        delta = new_end - old_end
        tail = old[bisect.bisect_right(old, old_end) :]
        starts.extend([x + delta for x in tail] if delta else tail)
        index = cls.__new__(cls)
        index.text = text
        index.starts = starts
        return index

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based column in code points."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def line_text(self, line: int) -> str:
        """The text of a 1-based line without its line break."""
        start, end = self.line_span(line)
        return self.text[start:end]

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets ``[start, end)`` of a 1-based line without its line break, found without
        copying the line (a minified file is one line of megabytes: a reporter showing a
        window of it per finding must not copy it per finding)."""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        text = self.text
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        return start, end

    def offset(self, line: int, column: int) -> int:
        """Offset of a 1-based line and column (clamped to the text)."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        return min(start + max(column - 1, 0), start + len(self.line_text(line)))

    @property
    def line_count(self) -> int:
        return len(self.starts)


def _sub_span(source: "SourceMap | None", path: tuple[str | int, ...], fallback: Span) -> Span:
    if source is None:
        return fallback
    return source.span(path) or fallback


def _next_break(text: str, i: int) -> int:
    a = text.find("\n", i)
    b = text.find("\r", i)
    if a < 0:
        return b
    if b < 0:
        return a
    return min(a, b)


@record(frozen=True, slots=True)
class Syllabus:
    """A parsed syllabus: top-level fields, instructions, non-JSON constructs and positions."""

    text: str
    path: str | None
    form: DocumentForm
    value: Any
    #: a tuple from a full parse; an incremental parse's ``grammar.shifted.Shifted``, which
    #: moves the instructions after an edit only when they are read
    instructions: Sequence[Instruction]
    name: str | None = None
    author: str | None = None
    contains: str | None = None
    default_params: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    comments: Any = None
    declared_type: str | None = None
    top_level_keys: tuple[TopLevelKey, ...] = ()
    non_json: tuple[NonJson, ...] = ()
    source_map: "SourceMap | None" = field(default=None, compare=False, repr=False)
    lines: LineIndex | None = field(default=None, compare=False, repr=False)
    instructions_span: Span | None = None

    @property
    def phases(self) -> tuple[PhaseMark, ...]:
        return tuple(i for i in self.instructions if isinstance(i, PhaseMark))

    @property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(i for i in self.instructions if isinstance(i, Block))

    @property
    def infos(self) -> tuple[Info, ...]:
        return tuple(i for i in self.instructions if isinstance(i, Info))

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task names in order of first appearance."""
        return tuple(dict.fromkeys(b.task for b in self.blocks))

    def line_col(self, offset: int) -> tuple[int, int]:
        index = self.lines or LineIndex(self.text)
        return index.line_col(offset)
