"""The document's shape for the editor: symbols (phases -> blocks), folds and inlay hints.

All three are views of the schedule: a phase owns the blocks after it up to the next phase,
and its episode range is where its first block starts to where its last one ends.
"""

from __future__ import annotations

import bisect
import re
from typing import Any, Callable

from lsprotocol import types

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


def _block_symbol(analysis: Analysis, sb: ScheduledBlock) -> dict[str, Any]:
    block: Block = sb.block
    positions = analysis.positions
    return {
        "name": f"{block.task} ×{block.count}" if block.repeated else block.task,
        "detail": f"{block.directive} · {_episodes(sb.start, sb.end)}",
        "kind": types.SymbolKind.Event.value,
        "range": positions.wire_range(block.span),
        "selectionRange": positions.wire_range(_value_span(analysis.text, block.span, _TASK_VALUE)),
    }


def document_symbols(analysis: Analysis) -> list[dict[str, Any]]:
    """Phases with their blocks as children, in LSP's JSON form (``DocumentSymbol[]``).

    Built as plain JSON because a 500 KB syllabus has some 7,000 symbols: lsprotocol objects
    and their unstructuring would cost several times the rest of the request.
    """
    if analysis.model is None or analysis.schedule is None:
        return []
    positions = analysis.positions
    out: list[dict[str, Any]] = [_block_symbol(analysis, sb) for sb in analysis.schedule.unphased]
    for run in analysis.schedule.phases:
        phase = run.phase
        learning = {b.learning for b in run.blocks}
        out.append(
            {
                "name": phase.label,
                "detail": f"{phase.kind or 'phase'} · {_episodes(run.start, run.end) if run.blocks else 'no episodes'}"
                + (_learning(learning.pop()) if len(learning) == 1 else ""),
                "kind": types.SymbolKind.Namespace.value,
                "range": positions.wire_range(phase_extent(analysis, phase)),
                "selectionRange": positions.wire_range(_value_span(analysis.text, phase.span, _PHASE_VALUE)),
                "children": [_block_symbol(analysis, sb) for sb in run.blocks],
            }
        )
    return out


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
