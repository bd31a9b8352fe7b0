"""The typed, immutable syllabus model.

The model is what every other part of sylla reads: the linter checks it, the language server
maps it onto editor requests, the schedule flattens it for the metrics. It knows nothing of
editors or reporters: positions are plain code-point offsets into the decoded text, and
`LineIndex` converts them to 1-based line/column at the edge.
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

from sylla.grammar.core import LineIndex, Span
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field, record

if TYPE_CHECKING:
    from typing import Any, Literal, Mapping, Sequence

    from sylla.grammar.syllabus.source_map import SourceMap

EMPTY: Mapping[str, Any] = MappingProxyType({})


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


def _sub_span(source: "SourceMap | None", path: tuple[str | int, ...], fallback: Span) -> Span:
    if source is None:
        return fallback
    return source.span(path) or fallback


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
