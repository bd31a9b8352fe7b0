"""sylla: authoring, linting and metrics for lifelong-learning syllabi.

The public API is small and imports lazily, so that ``sylla explain`` and ``sylla lint`` start
fast and never pull in numpy, pandas or matplotlib:

- ``parse(text, path=None)`` -> ``ParseResult`` (model or None, diagnostics)
- ``schedule(model, workers=1, worker=0)`` -> ``Schedule``
- ``lint(...)`` and ``compute_metrics(...)`` live in ``sylla.linter`` and ``sylla.metrics``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from sylla.grammar.parse import ParseResult
    from sylla.grammar.schedule import Schedule
    from sylla.grammar.model import Syllabus


def parse(text: str | bytes, path: str | None = None) -> "ParseResult":
    """Parse syllabus text (or raw bytes) into the model and the core's diagnostics."""
    from sylla.grammar.parse import parse as _parse

    return _parse(text, path)


def schedule(model: "Syllabus", workers: int = 1, worker: int = 0) -> "Schedule":
    """Flatten a parsed syllabus into one worker's schedule of blocks and episode ranges."""
    from sylla.grammar.schedule import schedule as _schedule

    return _schedule(model, workers, worker)


def __getattr__(name: str) -> Any:
    if name == "lint":
        from sylla.linter import lint

        return lint
    if name == "compute_metrics":
        from sylla.metrics import compute_metrics

        return compute_metrics
    if name == "explain":
        from sylla.grammar.explain import explain

        return explain
    raise AttributeError(name)
