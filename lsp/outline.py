"""The document's shape for the editor: symbols (phases -> blocks), folds and inlay hints.

All three are views of the schedule: a phase owns the blocks after it up to the next phase,
and its episode range is where its first block starts to where its last one ends.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any, Callable

from lsprotocol import types

from sylla.grammar.incremental import changed_region
from sylla.grammar.model import Block, PhaseMark, Span
from sylla.grammar.schedule import PhaseRun, ScheduledBlock

from .documents import Analysis
from .positions import PositionMap


def _episodes(start: int, end: int) -> str:
    return "no episodes" if end <= start else f"episodes {start}–{end - 1}"


def _learning(value: bool | None) -> str:
    return "" if value is None else (" · learning on" if value else " · learning off")


def phase_extent(analysis: Analysis, phase: PhaseMark) -> Span:
    """From the phase mark to the last instruction before the next phase."""
    return Span(phase.span.start, analysis.phase_ends.get(phase.index, phase.span.end))


_STRING = r'("(?:[^"\\\n]|\\.)*")'
_TASK_VALUE = re.compile(r'"\$(?:episode|dataset)"\s*:\s*' + _STRING)
_PHASE_VALUE = re.compile(r'"\$phase"\s*:\s*' + _STRING)


def _value_span(text: str, span: Span, pattern: re.Pattern[str]) -> Span:
    """The string after a directive key inside ``span``, read from the text.

    The same span as the model's ``task_span``/``label_span``, which re-parse the
    instruction exactly to find it: for 7,000 blocks that costs seconds, the scan nothing.
    """
    m = pattern.search(text, span.start, span.end)
    return Span(m.start(1), m.end(1)) if m else span


_ESC = json.encoder.encode_basestring_ascii  # C: a JSON string, ASCII only


class RenderedRanges:
    """Each symbol of one text as JSON up to its ``detail``, by its range's span.

    That part (name, kind, range, selection range) depends only on the block's own text and
    the text and number of its lines, so after an edit most are the same: a block ending
    before the changed region, and a block after it whose first line starts after the region
    and keeps its line number (likewise a phase, whose range runs to its last instruction).
    The next version's outline copies those strings instead of finding lines and columns for
    8,000 symbols again; only the details (episode ranges, which an edited count moves for
    every later block) are written anew.
    """

    __slots__ = ("text", "encoding", "starts", "by_span")

    def __init__(self, text: str, encoding: str, starts: list[int], by_span: dict[tuple[int, int], str]) -> None:
        self.text = text
        self.encoding = encoding
        self.starts = starts
        self.by_span = by_span


def _position_json(positions: PositionMap) -> Callable[[int], str]:
    """offset -> the JSON of its LSP position (``PositionMap.wire``, as text)."""
    if positions.text.isascii():
        starts, line = positions.lines.starts, bisect.bisect_right
        end = len(positions.text)

        def ascii_position(offset: int) -> str:
            offset = 0 if offset < 0 else end if offset > end else offset
            n = line(starts, offset) - 1
            return '{"line":%d,"character":%d}' % (n, offset - starts[n])

        return ascii_position

    def position(offset: int) -> str:
        w = positions.wire(offset)
        return '{"line":%d,"character":%d}' % (w["line"], w["character"])

    return position


def document_symbols(analysis: Analysis, previous: RenderedRanges | None = None) -> tuple[str, RenderedRanges | None]:
    """Phases with their blocks as children, as the JSON text of LSP's ``DocumentSymbol[]``,
    and the block ranges rendered for it (pass them back for the next version's outline).

    Written as JSON text because a 500 KB syllabus has some 8,000 symbols: building them as
    lsprotocol objects, or as dicts for a JSON encoder, costs several times the rest.
    """
    model, plan = analysis.model, analysis.schedule
    if model is None or plan is None:
        return "[]", None
    text, positions = analysis.text, analysis.positions
    at = _position_json(positions)
    starts = positions.lines.starts
    reuse = _reusable(previous, text, analysis.encoding, starts)
    rendered: dict[tuple[int, int], str] = {}
    event, namespace = types.SymbolKind.Event.value, types.SymbolKind.Namespace.value

    def blocks(run: tuple[ScheduledBlock, ...]) -> str:
        """The block symbols of one run, joined (one loop: 7,000 blocks at 500 KB)."""
        parts = []
        for sb in run:
            block: Block = sb.block
            span = block.span
            head = reuse(span) if reuse is not None else None
            if head is None:
                selection = _value_span(text, span, _TASK_VALUE)
                name = _ESC(f"{block.task} ×{block.count}" if block.repeated else block.task)
                # everything but the episode numbers, the detail's directive included (the
                # block's own text decides it), as the JSON encoder writes " · " and "–"
                head = '{"name":%s,"kind":%d,"range":{"start":%s,"end":%s},"selectionRange":{"start":%s,"end":%s},"detail":"%s \\u00b7 ' % (
                    name, event, at(span.start), at(span.end), at(selection.start), at(selection.end), block.directive
                )
            rendered[(span.start, span.end)] = head
            parts.append(
                '%sepisodes %d\\u2013%d"}' % (head, sb.start, sb.end - 1) if sb.end > sb.start else head + 'no episodes"}'
            )
        return ",".join(parts)

    out = [blocks(plan.unphased)] if plan.unphased else []
    for run in plan.phases:
        phase = run.phase
        learning = {b.learning for b in run.blocks}
        detail = f"{phase.kind or 'phase'} · {_episodes(run.start, run.end) if run.blocks else 'no episodes'}" + (
            _learning(learning.pop()) if len(learning) == 1 else ""
        )
        extent = phase_extent(analysis, phase)
        head = reuse(extent) if reuse is not None else None
        if head is None:
            selection = _value_span(text, phase.span, _PHASE_VALUE)
            head = '{"name":%s,"kind":%d,"range":{"start":%s,"end":%s},"selectionRange":{"start":%s,"end":%s},"detail":' % (
                _ESC(phase.label), namespace, at(extent.start), at(extent.end), at(selection.start), at(selection.end)
            )
        rendered[(extent.start, extent.end)] = head
        out.append('%s%s,"children":[%s]}' % (head, _ESC(detail), blocks(run.blocks)))
    return "[" + ",".join(out) + "]", RenderedRanges(text, analysis.encoding, starts, rendered)


def _reusable(
    previous: RenderedRanges | None, text: str, encoding: str, starts: list[int]
) -> Callable[[Span], str | None] | None:
    """A lookup of the previous outline's rendered heads for a span of ``text`` that provably
    has the same positions there; None when there is nothing to reuse."""
    if previous is None or previous.encoding != encoding or not previous.by_span:
        return None
    start, old_end, new_end = changed_region(previous.text, text)
    delta = new_end - old_end
    by_span, old_starts = previous.by_span, previous.starts
    # the first line that starts past the edit (its line break is unchanged text): when it
    # has the same number in both texts, so has every later line, with the same text
    n = bisect.bisect_right(starts, new_end)
    after = starts[n] if n < len(starts) and n < len(old_starts) and old_starts[n] == starts[n] - delta else None

    def lookup(span: Span) -> str | None:
        if span.end < start:  # the same text and lines before the edit
            return by_span.get((span.start, span.end))
        if after is not None and span.start >= after:
            return by_span.get((span.start - delta, span.end - delta))
        return None

    return lookup


def folding_ranges(analysis: Analysis) -> list[dict[str, Any]]:
    """A fold per phase (mark to its last instruction), per multi-line instruction, and for
    the instruction list and ``default_params``; in LSP's JSON form, like the symbols."""
    model = analysis.model
    if model is None:
        return []
    positions = analysis.positions
    spans: list[tuple[Span, str | None]] = []
    if model.instructions_span is not None:
        spans.append((model.instructions_span, None))
    for key in model.top_level_keys:
        if key.name == "default_params":
            spans.append((key.value_span, None))
    for phase in model.phases:
        spans.append((phase_extent(analysis, phase), types.FoldingRangeKind.Region))
    for instruction in model.instructions:
        spans.append((instruction.span, None))
    out: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    # 10,000 spans at 500 KB, nearly all on one line: skip those with a scan in C, and find
    # the lines of the rest by bisecting the line starts (``line_of``, inlined)
    starts, line, find = positions.lines.starts, bisect.bisect_right, positions.text.find
    for span, kind in spans:
        if find("\n", span.start, span.end - 1) < 0 and find("\r", span.start, span.end - 1) < 0:
            continue
        start, end = line(starts, span.start) - 1, line(starts, max(span.start, span.end - 1)) - 1
        if end > start and (start, end) not in seen:
            seen.add((start, end))
            fold: dict[str, Any] = {"startLine": start, "endLine": end}
            if kind is not None:
                fold["kind"] = kind.value
            out.append(fold)
    out.sort(key=lambda f: (f["startLine"], -f["endLine"]))
    return out


def inlay_hints(
    analysis: Analysis,
    range_: Span | None = None,
    moved: tuple[Callable[[Span], Span | None], PositionMap] | None = None,
) -> list[types.InlayHint]:
    """After each ``$phase`` instruction: its episode range (and learning when known).

    ``moved`` answers for a newer text than the analysed one (see ``stale``): a function that
    moves a span through the edit (None: the edit touches it, leave its hint out) and the
    newer text's positions; ``range_`` is then in the newer text."""
    if analysis.schedule is None:
        return []
    move, positions = moved if moved is not None else (None, analysis.positions)
    out: list[types.InlayHint] = []
    for run in analysis.schedule.phases:
        span = run.phase.span if move is None else move(run.phase.span)
        if span is None:
            continue
        if range_ is not None and not (range_.start <= span.end and span.start <= range_.end):
            continue
        out.append(_hint(positions.position(span.end), run))
    return out


def _hint(position: types.Position, run: PhaseRun) -> types.InlayHint:
    learning = {b.learning for b in run.blocks}
    label = (_episodes(run.start, run.end) if run.blocks else "no episodes") + (
        _learning(learning.pop()) if len(learning) == 1 else ""
    )
    return types.InlayHint(position=position, label=label, kind=types.InlayHintKind.Type, padding_left=True)
