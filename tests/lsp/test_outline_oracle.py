"""The outline's JSON text (``outline_pieces``, written as text for speed) is exactly what
pygls would send for the same outline built the slow way: lsprotocol ``DocumentSymbol``
objects from the model and the schedule, positions from ``PositionMap.range``, turned into
JSON by pygls's own converter.

This holds the fast path to an independent statement of the outline on every real syllabus
under ``examples/`` and ``tests/fixtures/``, and on edited versions of them (characters typed
or deleted anywhere, syntax errors included), written both from scratch and from the last
version's pieces, as the server does while the user types."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import default_converter

from sylla.grammar.core import Span
from sylla.grammar.syllabus.incremental import reparse
from sylla.grammar.syllabus.model import Block, PhaseMark
from sylla.grammar.syllabus.parse import ParseResult, parse
from sylla.grammar.syllabus.schedule import ScheduledBlock, schedule
from sylla.lsp.documents import Analysis
from sylla.lsp.outline_pieces import document_symbols
from sylla.lsp.positions import PositionMap

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for pattern in ("examples/*.json*", "tests/fixtures/**/*.json*") for p in ROOT.glob(pattern))
URI = "file:///oracle.json"
CONVERTER = default_converter()


def _texts() -> list[tuple[str, str]]:
    out = []
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        model = parse(text).model
        if model is not None and model.instructions:
            out.append((path.relative_to(ROOT).as_posix(), text))
    return out


TEXTS = _texts()


def _episodes(start: int, end: int) -> str:
    return "no episodes" if end <= start else f"episodes {start}–{end - 1}"


def _selection(text: str, keys: str, value: Span, whole: Span, syntax_ok: bool) -> Span:
    """The span of the phase's label or the block's task: the model's, in a text without
    syntax errors. In a repaired text (a missing colon or quote, single quotes, a bare word)
    the model's value may be a repair's, and the outline selects what is written there: the
    first ``"<one of keys>": "<a string>"`` in the instruction, else the whole instruction."""
    if syntax_ok:
        return value
    found = re.compile(r'"(?:%s)"\s*:\s*("(?:[^"\\\n]|\\.)*")' % keys).search(text, whole.start, whole.end)
    return Span(found.start(1), found.end(1)) if found else whole


def _block_symbol(positions: PositionMap, sb: ScheduledBlock, syntax_ok: bool) -> types.DocumentSymbol:
    block = sb.block
    selection = _selection(positions.text, r"\$episode|\$dataset", block.task_span, block.span, syntax_ok)
    return types.DocumentSymbol(
        name=f"{block.task} ×{block.count}" if block.repeated else block.task,
        kind=types.SymbolKind.Event,
        range=positions.range(block.span),
        selection_range=positions.range(selection),
        detail=f"{block.directive} · {_episodes(sb.start, sb.end)}",
    )


def slow_outline(result: ParseResult, text: str, encoding: str) -> Any:
    """The outline as lsprotocol objects, unstructured by pygls's converter (as pygls sends
    a handler's answer), read back as JSON."""
    model = result.model
    if model is None:
        return []
    positions = Analysis(URI, None, text, encoding, result).positions
    plan = schedule(model)
    symbols = [_block_symbol(positions, sb, result.syntax_ok) for sb in plan.unphased]
    ends: dict[int, int] = {}
    current = None
    for instruction in model.instructions:
        if isinstance(instruction, PhaseMark):
            current = instruction.index
        if current is not None:
            ends[current] = instruction.span.end
    for run in plan.phases:
        phase = run.phase
        learning = {sb.learning for sb in run.blocks}
        value = next(iter(learning)) if len(learning) == 1 else None
        episodes = _episodes(run.start, run.end) if run.blocks else "no episodes"
        symbols.append(types.DocumentSymbol(
            name=phase.label,
            kind=types.SymbolKind.Namespace,
            range=positions.range(Span(phase.span.start, ends[phase.index])),
            selection_range=positions.range(_selection(positions.text, r"\$phase", phase.label_span, phase.span, result.syntax_ok)),
            detail=f"{phase.kind or 'phase'} · {episodes}" + ("" if value is None else " · learning on" if value else " · learning off"),
            children=[_block_symbol(positions, sb, result.syntax_ok) for sb in run.blocks],
        ))
    return json.loads(json.dumps(CONVERTER.unstructure(symbols, list[types.DocumentSymbol])))


def fast_outline(result: ParseResult, text: str, encoding: str, previous: Any = None) -> tuple[Any, Any]:
    answer, pieces = document_symbols(Analysis(URI, None, text, encoding, result), previous)
    return json.loads(answer), pieces


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[n for n, _ in TEXTS])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_the_outline_is_what_pygls_would_send(name: str, text: str, encoding: str) -> None:
    result = parse(text)
    fast, _ = fast_outline(result, text, encoding)
    assert fast == slow_outline(result, text, encoding), name
    assert any(isinstance(i, Block) for i in result.model.instructions) <= bool(fast)  # type: ignore[union-attr]  # the texts have models


#: what an editing session types: digits (counts), letters (names, keys), line breaks,
#: JSON punctuation that may break the syntax, and characters wider than one UTF-16 unit
TYPED = st.lists(st.sampled_from(list("0123456789 az\n,}{\"") + ["\r\n", "é", "𝄞"]), max_size=3).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(TEXTS), st.sampled_from(["utf-16", "utf-8"]), st.data())
@pytest.mark.slow
def test_edited_outlines_are_what_pygls_would_send(named: tuple[str, str], encoding: str, data: st.DataObject) -> None:
    """Three edits one after the other, each outline written from the last one's pieces and
    from scratch; both equal the slow outline of the edited text."""
    name, text = named
    result = parse(text)
    _, pieces = fast_outline(result, text, encoding)
    for _ in range(3):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 3)))
        text = text[:start] + data.draw(TYPED) + text[end:]
        result = reparse(result, text)
        reused, pieces = fast_outline(result, text, encoding, pieces)
        expected = slow_outline(result, text, encoding)
        assert reused == expected, name
        assert fast_outline(parse(text), text, encoding)[0] == expected, name
