"""The plan of a run: the syllabus's schedule with each block's environment and learning flag.

Everything a user can get wrong in the syllabus is found here, before any episode runs: a
syllabus that does not parse, an unknown task, a parameter its environment does not take, a
value its constructor or first ``reset`` refuses. Each problem names its place in the syllabus.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import schedule

from .errors import EXIT_FAILED, EXIT_USAGE, RunError
from .tasks.errors import TaskError

if TYPE_CHECKING:
    from sylla.grammar.core import Span
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.schedule import ScheduledBlock

    from .tasks.registry import Registry
    from .tasks.spec import TaskSpec


@dataclass(frozen=True)
class PlannedBlock:
    """One non-empty block of the schedule, ready to run."""

    scheduled: "ScheduledBlock"
    spec: "TaskSpec"
    kwargs: dict[str, Any]
    #: the key of the environment cache: task and constructor arguments
    env_key: str
    #: ``train`` or ``test`` (``ScheduledBlock.kind``); the agent learns in train blocks
    block_type: str
    #: l2logger's block number: this block's position among the non-empty blocks
    log_block: int
    #: ``syllabus:line:col`` of the block's task
    where: str

    @property
    def learning(self) -> bool:
        return self.block_type == "train"


@dataclass(frozen=True)
class Plan:
    path: str
    text: bytes
    blocks: tuple[PlannedBlock, ...]
    episodes: int

    def block_of(self, episode: int) -> int:
        """The index in ``blocks`` of the block holding ``episode`` (or ``len(blocks)``)."""
        for i, b in enumerate(self.blocks):
            if episode < b.scheduled.end:
                return i
        return len(self.blocks)


def load(path: str) -> tuple["Syllabus", bytes]:
    """A clean syllabus, or a `RunError` at its first error (exit 1, as ``sylla simulate``)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise RunError("no such syllabus file", path) from None
    except OSError as exc:
        raise RunError(f"cannot read syllabus: {exc.strerror or exc}", path) from None
    result = parse(data, path)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if result.model is None or errors:
        first = errors[0] if errors else (result.diagnostics[0] if result.diagnostics else None)
        if first is None:
            raise RunError("no syllabus could be read", path, EXIT_FAILED)
        line, col = result.lines.line_col(first.span.start)
        raise RunError(f"{first.message} (see `sylla lint {path}`)", f"{path}:{line}:{col}", EXIT_FAILED)
    if result.model.contains not in (None, "episodes"):
        raise RunError(f'the syllabus contains "{result.model.contains}"; sylla run runs episodes', path, EXIT_USAGE)
    return result.model, data


def _at(model: "Syllabus", path: str, span: "Span | None", fallback: "Span") -> str:
    line, col = model.line_col((span or fallback).start)
    return f"{path}:{line}:{col}"


def make_plan(path: str, registry: "Registry") -> Plan:
    """Resolve every block of the syllabus at ``path``; all unknown tasks and parameters are
    reported together, each at its line."""
    model, data = load(path)
    sched = schedule(model)
    if sched.episodes == 0:
        raise RunError("the syllabus schedules no episodes", path, EXIT_FAILED)
    problems: list[str] = []
    blocks: list[PlannedBlock] = []
    for b in sched.blocks:
        if b.count == 0:
            continue
        block = b.block
        if block.leaf != "episode":
            problems.append(f"{_at(model, path, block.task_span, block.span)}: a ${block.leaf} block; sylla run runs episodes")
            continue
        try:
            spec = registry.require(block.task, block.module)
        except TaskError as exc:
            problems.append(f"{_at(model, path, block.task_span, block.span)}: {exc.message}")
            continue
        try:
            kwargs = registry.kwargs(spec, block.params)
        except TaskError as exc:
            span = block.param_span(exc.param) if exc.param else None
            problems.append(f"{_at(model, path, span, block.task_span)}: {exc.message}")
            continue
        key = json.dumps([spec.name, spec.origin, {k: repr(v) for k, v in sorted(kwargs.items())}])
        blocks.append(PlannedBlock(b, spec, kwargs, key, b.kind, len(blocks), _at(model, path, block.task_span, block.span)))
    if problems:
        raise RunError("\n".join(problems), None, EXIT_USAGE)
    return Plan(path, data, tuple(blocks), sched.episodes)
