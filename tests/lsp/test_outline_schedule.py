"""The outline's episode ranges and learning states are the schedule's (``sylla explain``'s).

The outline is written per phase from the instructions (``outline_pieces``), not from
``schedule.schedule``, so this holds the two to one another on every real syllabus under
``examples/`` and ``tests/fixtures/``, and on the same texts with ``$info`` switches added."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import schedule
from sylla.lsp.documents import Analysis
from sylla.lsp.outline import document_symbols

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for pattern in ("examples/*.json*", "tests/fixtures/**/*.json*") for p in ROOT.glob(pattern))
INFO_OFF = '{"$info": {"disable_updates": true}}, '


def _episodes(start: int, end: int) -> str:
    return "no episodes" if end <= start else f"episodes {start}–{end - 1}"


def _learning(values: set[bool | None]) -> str:
    if len(values) != 1:
        return ""
    value = next(iter(values))
    return "" if value is None else (" · learning on" if value else " · learning off")


def _texts() -> list[tuple[str, str]]:
    out = []
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        result = parse(text)
        if result.model is None or not result.model.phases:
            continue
        out.append((path.relative_to(ROOT).as_posix(), text))
        # an $info switch before every other phase: learning then comes from the $info state
        marks = [p.span.start for p in result.model.phases][::2]
        for at in reversed(marks):
            text = text[:at] + INFO_OFF + text[at:]
        out.append((path.relative_to(ROOT).as_posix() + " +$info", text))
    return out


@pytest.mark.parametrize(("name", "text"), _texts(), ids=lambda v: v if "/" in str(v) else "")
def test_outline_details_are_the_schedules(name: str, text: str) -> None:
    result = parse(text)
    assert result.model is not None
    plan = schedule(result.model)
    outline = json.loads(document_symbols(Analysis("file:///t.json", None, text, "utf-16", result))[0])
    phases = [s for s in outline if s["kind"] == 3]
    unphased = [s for s in outline if s["kind"] != 3]
    assert len(phases) == len(plan.phases) and len(unphased) == len(plan.unphased), name
    for symbol, run in zip(phases, plan.phases):
        episodes = _episodes(run.start, run.end) if run.blocks else "no episodes"
        learning = _learning({b.learning for b in run.blocks})
        assert symbol["detail"] == f"{run.phase.kind or 'phase'} · {episodes}{learning}", name
        assert [c["detail"] for c in symbol["children"]] == [
            f"{sb.block.directive} · {_episodes(sb.start, sb.end)}" for sb in run.blocks
        ], name
    assert [s["detail"] for s in unphased] == [f"{sb.block.directive} · {_episodes(sb.start, sb.end)}" for sb in plan.unphased]
