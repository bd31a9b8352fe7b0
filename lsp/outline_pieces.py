"""The outline (documentSymbol) as one piece per phase, kept from version to version by text.

The editor asks for the outline after every keystroke, and a 500 KB syllabus has some 8,000
symbols in 3,600 phases. One keystroke changes little of it: a phase's symbols depend only on
its own text (from its ``$phase`` to its last instruction, plus what precedes it on its first
line, which fixes the columns there) and on the learning state the ``$info`` instructions
before it leave in force. Where the phase sits moves all its line numbers by one amount and
all its episode numbers by another; an edit above it (a line break, a count) changes nothing
else about it.

So each phase is written once as a template cut where its line and episode numbers go, with
the numbers kept relative to the phase's first line and first episode. The outline of the
next version looks each phase up by its text and joins the numbers in (or reuses the last
text when the phase did not move); only the phases an edit touched are written again, from
the new parse. Near a syntax error the parser's repair may depend on
more than the phase's text, so phases that overlap the repaired stretch
(``ParseResult.events``) are always written anew and never kept.
"""

from __future__ import annotations

import bisect
import json
import re
from itertools import compress, repeat
from operator import add, is_
from typing import Callable, Sequence, cast

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block, Info, Instruction, PhaseMark
from sylla.grammar.syllabus.parse import ParseResult
from sylla.grammar.syllabus.shifted import classes

from .documents import Analysis
from .positions import PositionMap

_ESC = json.encoder.encode_basestring_ascii  # C: a JSON string, ASCII only
_EVENT = types.SymbolKind.Event.value
_NAMESPACE = types.SymbolKind.Namespace.value
_STRING = r'("(?:[^"\\\n]|\\.)*")'
_TASK_VALUE = re.compile(r'"\$(?:episode|dataset)"\s*:\s*' + _STRING)
_PHASE_VALUE = re.compile(r'"\$phase"\s*:\s*' + _STRING)
#: where a number goes in a template (a control character: JSON text escapes every one)
_SLOT = "\x00"


class Piece:
    """One phase's symbol (or the blocks before the first phase) as a template: its JSON
    text cut at each line or episode number, and those numbers relative to the line the piece
    starts on and to its first episode."""

    __slots__ = ("parts", "values", "kinds", "total", "info_out", "_last", "_split", "_lines")

    def __init__(self, template: str, values: list[int], kinds: list[int], total: int, info_out: bool | None) -> None:
        cut = template.split(_SLOT)
        self.parts: list[str | None] = [None] * (2 * len(cut) - 1)
        self.parts[::2] = cut
        self.values = values
        #: per value: 0 a line number, 1 an episode number
        self.kinds = kinds
        #: how many episodes the piece's blocks hold
        self.total = total
        #: the ``$info`` learning state in force after the piece
        self.info_out = info_out
        self._last: tuple[int, int, str] | None = None
        #: the line numbers, the episode numbers, and each slot's place in their texts joined
        #: (line numbers first), made at the first ``render``: only chunks are rendered
        self._split: tuple[list[int], list[int], list[int]] | None = None
        #: the line numbers' texts at the last line rendered (a count edit moves only episodes)
        self._lines: tuple[int, list[str]] | None = None

    def render(self, line: int, episode: int) -> str:
        """The JSON text with the piece's first line at ``line`` and first episode at
        ``episode``: the last text when neither moved (the common case: an edit below, or on
        the same line without a count), else the numbers joined in (no format parsing).

        A line break or a count moves every chunk below it, some 50,000 numbers at 500 KB:
        each kind of number is moved and written with ``map`` (no Python loop per number),
        line numbers from a table of their texts, and only the kind that moved."""
        last = self._last
        if last is not None and last[0] == line and last[1] == episode:
            return last[2]
        split = self._split
        if split is None:
            split = self._split = _split(self.values, self.kinds)
        lines, episodes, order = split
        known = self._lines
        if known is not None and known[0] == line:
            numbers = known[1].copy()
        else:
            numbers = _line_texts(lines, line)
            self._lines = (line, numbers.copy())
        numbers += map(str, map(add, episodes, repeat(episode)) if episode else episodes)
        parts = self.parts.copy()
        parts[1::2] = map(numbers.__getitem__, order)
        text = "".join(parts)  # type: ignore[arg-type]  # the odd slots held numbers and were given their text on the line above
        self._last = (line, episode, text)
        return text


#: ``str(n)`` for the line numbers seen so far: a lookup instead of a new string per number
_NUMBER_TEXTS: list[str] = []


def _line_texts(lines: list[int], offset: int) -> list[str]:
    """The texts of ``lines`` moved by ``offset`` (line numbers: as many as a text has lines)."""
    moved = list(map(add, lines, repeat(offset))) if offset else lines
    top = max(moved, default=-1)
    if top >= len(_NUMBER_TEXTS):  # list.extend is atomic: a thread reading meanwhile sees a prefix
        _NUMBER_TEXTS.extend(map(str, range(len(_NUMBER_TEXTS), top + 1)))
    if moved and min(moved) < 0:  # relative numbers of a piece are never negative; be safe anyway
        return list(map(str, moved))
    return list(map(_NUMBER_TEXTS.__getitem__, moved))


def _split(values: list[int], kinds: list[int]) -> tuple[list[int], list[int], list[int]]:
    """``values`` as (line numbers, episode numbers, where each slot's text is when the
    texts of both are joined in that order)."""
    is_episode = list(map(bool, kinds))
    lines = list(compress(values, [not e for e in is_episode]))
    episodes = list(compress(values, is_episode))
    order: list[int] = []
    next_line, next_episode = 0, len(lines)
    for e in is_episode:
        if e:
            order.append(next_episode)
            next_episode += 1
        else:
            order.append(next_line)
            next_line += 1
    return lines, episodes, order


#: (text before the piece on its first line, the piece's text, learning state coming in)
Key = tuple[str, str, "bool | None"]
#: phases per chunk (see ``Chunk``)
CHUNK = 64


class Chunk(Piece):
    """``CHUNK`` consecutive pieces joined into one template, keyed like a piece by the text
    from the line its first piece starts on to the end of its last, and the learning state
    coming in. A 500 KB syllabus has 3,600 phases: looking each up and joining its numbers in
    after every keystroke cost more than the parse of the edit; its 60 chunks are looked up
    and rendered (one ``map`` over their numbers each) in a fraction of that, and only the
    chunk an edit touched is joined again from its pieces."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: list[tuple[Key, Piece, int, int]]) -> None:
        """``pieces``: each piece's key, the piece, and its first line and first episode
        relative to the chunk's."""
        templates: list[str] = []
        values: list[int] = []
        kinds: list[int] = []
        for _, piece, line, episode in pieces:
            if len(piece.parts) == 1 and not piece.parts[0]:
                continue  # the blocks before the first phase, when there are none
            templates.append(_SLOT.join(piece.parts[::2]))  # type: ignore[arg-type]  # the even slots of a piece are always text
            offset = (line, episode)
            values.extend([v + offset[k] for v, k in zip(piece.values, piece.kinds)])
            kinds.extend(piece.kinds)
        super().__init__(",".join(templates), values, kinds, sum(p.total for _, p, _, _ in pieces), pieces[-1][1].info_out)
        self.pieces = [(key, piece) for key, piece, _, _ in pieces]


class Pieces:
    """The chunks of one version's outline (``Chunk``), by key and in order, for the next
    version to reuse: a chunk whose key is unchanged as it is, the pieces of the chunks around
    the same place for a chunk an edit touched."""

    __slots__ = ("encoding", "chunks", "order")

    def __init__(self, encoding: str, chunks: "dict[Key, Chunk]", order: "list[Chunk]") -> None:
        self.encoding = encoding
        self.chunks = chunks
        self.order = order


class _Writer:
    """Writes one piece: positions as relative line placeholders, episodes likewise."""

    def __init__(self, analysis: Analysis, first_line: int) -> None:
        positions = analysis.positions
        self.text = analysis.result.text
        self.first_line = first_line
        self.values: list[int] = []
        self.kinds: list[int] = []
        self._line_col = _line_col(positions)

    def at(self, offset: int) -> str:
        line, character = self._line_col(offset)
        self.values.append(line - self.first_line)
        self.kinds.append(0)
        return '{"line":' + _SLOT + ',"character":' + str(character) + "}"

    def episode(self, n: int) -> str:
        self.values.append(n)
        self.kinds.append(1)
        return _SLOT

    def range(self, span: Span, selection: Span) -> str:
        return '"range":{"start":%s,"end":%s},"selectionRange":{"start":%s,"end":%s}' % (
            self.at(span.start), self.at(span.end), self.at(selection.start), self.at(selection.end)
        )

    def episodes_text(self, start: int, end: int) -> str:
        """``_episodes(start, end)`` of the outline, JSON-escaped, numbers as placeholders."""
        if end <= start:
            return "no episodes"
        return "episodes " + self.episode(start) + "\\u2013" + self.episode(end - 1)


def _line_col(positions: PositionMap) -> Callable[[int], tuple[int, int]]:
    """offset -> (line, character in the negotiated encoding)."""
    if positions.plain:
        starts, find, end = positions.lines.starts, bisect.bisect_right, len(positions.text)

        def ascii_line_col(offset: int) -> tuple[int, int]:
            offset = 0 if offset < 0 else end if offset > end else offset
            n = find(starts, offset) - 1
            return n, offset - starts[n]

        return ascii_line_col

    def line_col(offset: int) -> tuple[int, int]:
        w = positions.wire(offset)
        return w["line"], w["character"]

    return line_col


def _learning_text(values: set[bool | None]) -> str:
    if len(values) != 1:
        return ""
    value = next(iter(values))
    return "" if value is None else (" \\u00b7 learning on" if value else " \\u00b7 learning off")


def _write(analysis: Analysis, part: tuple[Instruction, ...], phase: PhaseMark | None, first_line: int, info: bool | None) -> Piece:
    """The piece of one phase (``part`` starts with its mark) or of the blocks before the
    first phase (``phase`` None). Learning follows ``schedule.schedule``: the phase's
    ``enable_updates`` when it has one, else the ``$info`` state in force."""
    w = _Writer(analysis, first_line)
    text = analysis.result.text  # the offsets are the parse's (a BOM it dropped is not in it)
    blocks: list[str] = []
    learning: set[bool | None] = set()
    episode = 0
    first_start = last_end = None
    for instruction in part:
        if isinstance(instruction, Info):
            if instruction.resets:
                info = None
            elif instruction.disable_updates is not None:
                info = not instruction.disable_updates
        elif isinstance(instruction, Block):
            learning.add(phase.enable_updates if phase is not None and phase.enable_updates is not None else info)
            span = instruction.span
            m = _TASK_VALUE.search(text, span.start, span.end)
            selection = Span(m.start(1), m.end(1)) if m else span
            name = _ESC(f"{instruction.task} ×{instruction.count}" if instruction.repeated else instruction.task)
            end = episode + instruction.count
            blocks.append('{"name":%s,"kind":%d,%s,"detail":"%s \\u00b7 %s"}' % (
                name, _EVENT, w.range(span, selection), instruction.directive, w.episodes_text(episode, end)
            ))
            if first_start is None:
                first_start = episode
            last_end = end
            episode = end
    children = ",".join(blocks)
    if phase is None:
        return Piece(children, w.values, w.kinds, episode, info)
    m = _PHASE_VALUE.search(text, phase.span.start, phase.span.end)
    selection = Span(m.start(1), m.end(1)) if m else phase.span
    extent = Span(phase.span.start, part[-1].span.end)
    n_children = len(w.values)
    head = '{"name":%s,"kind":%d,%s,"detail":"' % (_ESC(phase.label), _NAMESPACE, w.range(extent, selection))
    detail = _ESC(f"{phase.kind or 'phase'} · ")[1:-1]
    detail += w.episodes_text(first_start, last_end) if first_start is not None and last_end is not None else "no episodes"
    # the head comes first in the text but was written last: its numbers go first
    values = w.values[n_children:] + w.values[:n_children]
    kinds = w.kinds[n_children:] + w.kinds[:n_children]
    template = '%s%s%s","children":[%s]}' % (head, detail, _learning_text(learning), children)
    return Piece(template, values, kinds, episode, info)


def document_symbols(analysis: Analysis, previous: Pieces | None = None) -> tuple[str, Pieces | None]:
    """Phases with their blocks as children, as the JSON text of LSP's ``DocumentSymbol[]``,
    and this version's pieces (pass them back for the next version's outline).

    Written as JSON text because a 500 KB syllabus has some 8,000 symbols: building them as
    lsprotocol objects, or as dicts for a JSON encoder, costs several times the rest.
    """
    model = analysis.model
    if model is None:
        return "[]", None
    text = analysis.result.text  # the offsets are the parse's (a BOM it dropped is not in it)
    encoding = f"{analysis.encoding}+{analysis.positions.lead}"  # a dropped BOM moves line 0
    instructions = model.instructions
    # C loops over the 10,000 instructions of a 500 KB syllabus, not a Python one; their
    # classes only, which makes none of the copies an incremental parse leaves to be made
    # when read (``grammar.shifted``): this outline reads the few an edit touched
    marks = list(compress(range(len(instructions)), map(is_, classes(instructions), repeat(PhaseMark))))
    bounds = [0] + marks + [len(instructions)]
    result = cast(ParseResult, analysis.result)  # a syllabus: it has a model
    events = result.events
    if events is None and not result.syntax_ok:
        events = (0, len(text))  # a syntax error whose stretch is unknown: keep nothing
    reuse_chunks: dict[Key, Chunk] = {}
    before: list[Chunk] = []
    if previous is not None and previous.encoding == encoding:
        reuse_chunks, before = previous.chunks, previous.order
    kept_chunks: dict[Key, Chunk] = {}
    order: list[Chunk] = []
    starts = analysis.positions.lines.starts
    # (first instruction, end, k) per phase (k > 0), after the blocks before the first phase
    # (k = 0), which are left out when there are none: only that part can be empty
    parts = list(zip(bounds, bounds[1:], range(len(bounds) - 1)))
    if parts and parts[0][0] == parts[0][1]:
        del parts[0]
    out: list[str] = []
    episode, info = 0, None
    for c in range(0, len(parts), CHUNK):
        group = parts[c : c + CHUNK]
        start, end = instructions[group[0][0]].span.start, instructions[group[-1][1] - 1].span.end
        line = bisect.bisect_right(starts, start) - 1
        chunk_key: Key = (text[starts[line] : start], text[start:end], info)
        clean = events is None or end < events[0] or start > events[1]
        chunk = reuse_chunks.get(chunk_key) if clean else None
        if chunk is None:
            # the pieces of the last version's chunks at and around this place (phases added
            # or removed above move the chunks' bounds by less than a chunk)
            n = c // CHUNK
            reuse = {key: piece for old in before[max(0, n - 1) : n + 2] for key, piece in old.pieces if key is not None}
            chunk = _chunk(analysis, instructions, group, line, episode, info, events, reuse, starts, text)
        if clean:
            kept_chunks[chunk_key] = chunk
        order.append(chunk)
        if len(chunk.parts) > 1 or chunk.parts[0]:
            out.append(chunk.render(line, episode))
        episode += chunk.total
        info = chunk.info_out
    # one join with the brackets and commas as parts: each copy of 2 MB costs a millisecond
    parts_out = ["[", "]"] if not out else ["["] + [x for rendered in out for x in (rendered, ",")]
    parts_out[-1] = "]"
    return "".join(parts_out), Pieces(encoding, kept_chunks, order)


def _chunk(
    analysis: Analysis, instructions: Sequence[Instruction], group: list[tuple[int, int, int]],
    chunk_line: int, chunk_episode: int, info: bool | None, events: tuple[int, int] | None,
    reuse: dict[Key, Piece], starts: list[int], text: str,
) -> Chunk:
    """The chunk of the phases ``group`` (instruction ranges), from the pieces of the last
    version where their keys are the same, else written; a piece near a syntax error is
    written and not kept (its key None)."""
    pieces: list[tuple[Key, Piece, int, int]] = []
    episode = chunk_episode
    for lo, hi, k in group:
        part = instructions[lo:hi]
        phase = part[0] if k > 0 else None
        start, end = part[0].span.start, part[-1].span.end
        line = bisect.bisect_right(starts, start) - 1
        key: Key = (text[starts[line] : start], text[start:end], info)
        clean = events is None or end < events[0] or start > events[1]
        piece = reuse.get(key) if clean else None
        if piece is None:
            piece = _write(analysis, part, phase, line, info)  # type: ignore[arg-type]  # a phase (k > 0) starts with its PhaseMark
        pieces.append((key if clean else None, piece, line - chunk_line, episode - chunk_episode))  # type: ignore[arg-type]  # a None key marks a piece that is not kept for reuse
        episode += piece.total
        info = piece.info_out
    return Chunk(pieces)
