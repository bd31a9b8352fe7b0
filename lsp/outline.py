"""The document's shape for the editor: symbols (phases -> blocks), folds and inlay hints.

All three are views of the schedule: a phase owns the blocks after it up to the next phase,
and its episode range is where its first block starts to where its last one ends.
"""

from __future__ import annotations

import bisect
from typing import Any, Callable

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import PhaseMark
from sylla.grammar.syllabus.schedule import PhaseRun

from .documents import Analysis
from .outline_pieces import Pieces, document_symbols
from .positions import PositionMap

__all__ = ["Pieces", "document_symbols", "folding_ranges", "inlay_hints", "phase_extent"]


def _episodes(start: int, end: int) -> str:
    return "no episodes" if end <= start else f"episodes {start}–{end - 1}"


def _learning(value: bool | None) -> str:
    return "" if value is None else (" · learning on" if value else " · learning off")


def phase_extent(analysis: Analysis, phase: PhaseMark) -> Span:
    """From the phase mark to the last instruction before the next phase."""
    return Span(phase.span.start, analysis.phase_ends.get(phase.index, phase.span.end))


def folding_ranges(analysis: Analysis) -> list[dict[str, Any]]:
    """A fold per phase (mark to its last instruction), per multi-line instruction, and for
    the instruction list and ``default_params``; in LSP's JSON form, like the symbols."""
    model = analysis.model
    if model is None:
        return []
    positions = analysis.positions
    spans: list[tuple[Span, types.FoldingRangeKind | None]] = []
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
