"""sylla: authoring, linting and metrics for lifelong-learning syllabi.

The public API is small and imports lazily, so that ``sylla explain`` and ``sylla lint`` start
fast and never pull in numpy, pandas or matplotlib:

- ``parse(text, path=None)`` -> ``ParseResult`` (model or None, diagnostics)
- ``schedule(model, workers=1, worker=0)`` -> ``Schedule``
- ``lint(data, path=None, config=None)`` -> ``LintResult`` (from ``sylla.linter``)
- ``explain(model, workers=1, worker=0)`` -> the explain document (from ``sylla.grammar.syllabus.explain``)
- ``compute_metrics(log, syllabus=None, ...)`` -> ``MetricsResult`` (from ``sylla.metrics``;
  needs the ``metrics`` extra)
- ``sweep(root, group_by=None, ...)`` -> ``SweepResult`` (tidy frames: rows, summary, compare,
  failures; from ``sylla.metrics.sweep``)

The package ships ``py.typed``: type checkers read these signatures. ``lint``, ``explain``
and ``compute_metrics`` are imported for type checkers below and on first use at run time
(module ``__getattr__``), so their signatures are stated once, where they are defined.
"""

from __future__ import annotations

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.version import __version__

if TYPE_CHECKING:
    from typing import Any

    from sylla.grammar.syllabus.explain import explain as explain
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.parse import ParseResult
    from sylla.grammar.syllabus.schedule import Schedule
    from sylla.linter import lint as lint
    from sylla.metrics import compute_metrics as compute_metrics
    from sylla.metrics.sweep import sweep as sweep

__all__ = ["__version__", "compute_metrics", "explain", "lint", "parse", "schedule", "sweep"]


def parse(text: str | bytes, path: str | None = None) -> "ParseResult":
    """Parse syllabus text (or raw bytes) into the model and the core's diagnostics."""
    from sylla.grammar.syllabus.parse import parse as _parse  # noqa: PLC0415 - lazy: the public API imports on first use (start-up; see the module docstring)

    return _parse(text, path)


def schedule(model: "Syllabus", workers: int = 1, worker: int = 0) -> "Schedule":
    """Flatten a parsed syllabus into one worker's schedule of blocks and episode ranges."""
    from sylla.grammar.syllabus.schedule import schedule as _schedule  # noqa: PLC0415 - lazy: the public API imports on first use (start-up; see the module docstring)

    return _schedule(model, workers, worker)


def __getattr__(name: str) -> Any:
    if name == "lint":
        from sylla.linter import lint  # noqa: PLC0415 - lazy: the public API imports on first use (start-up; see the module docstring)

        return lint
    if name == "compute_metrics":
        from sylla.metrics import compute_metrics  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

        return compute_metrics
    if name == "sweep":
        from sylla.metrics.sweep import sweep  # noqa: PLC0415 - lazy: start-up, numpy, pandas loads only when used

        return sweep
    if name == "explain":
        from sylla.grammar.syllabus.explain import explain  # noqa: PLC0415 - lazy: the public API imports on first use (start-up; see the module docstring)

        return explain
    raise AttributeError(name)
