"""Progress bars on stderr for runs that take more than about a second, and nothing otherwise.

A bar is drawn only when stderr is a terminal (or ``enabled=True``) and only once the command has
been running for ``DELAY`` seconds (``SYLLA_PROGRESS_DELAY`` overrides it), so quick runs and pipes
stay quiet whatever the row count. Reading advances by bytes, batch by batch (never one jump from 0
to 100 %); computing advances by plugin and run, so the bar keeps moving after the log is read.

The one bar of the package: ``sylla metrics`` reads and computes with it, and ``sylla sweep``
counts runs with it (``count=True``: ``done/total`` and the time elapsed, a ``note`` naming the
slowest run in flight, and ``delay=0``, since a sweep is long whenever it computes at all).
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import AbstractContextManager
from typing import Any, Callable

DELAY = 1.0
_T0: float | None = None


def _delay() -> float:
    try:
        return float(os.environ.get("SYLLA_PROGRESS_DELAY", DELAY))
    except ValueError:
        return DELAY


def start_clock() -> None:
    """Mark the start of the command (the first bar also does): the delay counts from here."""
    global _T0
    if _T0 is None:
        _T0 = time.monotonic()


class Progress(AbstractContextManager["Progress"]):
    """One bar of ``total`` units (bytes read, steps computed, or runs done).

    ``count``: show ``done/total`` and the time elapsed rather than the percentage and the time
    left; ``note``: text drawn after the bar, asked again at each refresh; ``delay``: seconds from
    the start of the command before the bar may appear (None: ``DELAY`` or its override), 0 draws
    it from the start, even before the first unit is done."""

    def __init__(self, total: int, description: str, enabled: bool | None = None, *,
                 count: bool = False, note: Callable[[], str] | None = None,
                 delay: float | None = None) -> None:
        start_clock()
        self.total = max(int(total), 1)
        self.description = description
        # nothing to count (a sweep that found no runs): no bar
        self.enabled = (sys.stderr.isatty() if enabled is None else enabled) and total > 0
        self.done = 0
        self.count = count
        self.note = note
        self.delay = delay
        self._bar: Any = None
        self._task: Any = None
        if self.enabled and delay == 0:
            self._start()

    def estimate(self, rows_read: int, bytes_read: int) -> None:
        """Kept for readers that report rows; drawing depends on elapsed time only."""

    def advance(self, done: int) -> None:
        """Set the units done so far (bytes read, steps computed)."""
        self.done = done
        if not self.enabled:
            return
        if self._bar is None:
            assert _T0 is not None
            delay = _delay() if self.delay is None else self.delay
            if time.monotonic() - _T0 < delay or done >= self.total:
                return
            self._start()
        self._bar.update(self._task, completed=done)

    def step(self, n: int = 1) -> None:
        self.advance(self.done + n)

    def close(self) -> None:
        """Take the bar off the terminal where it stands (a sweep stopped early stays short)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self.total)
        self.close()

    def _start(self) -> None:
        from rich.progress import Progress as RichProgress  # noqa: PLC0415 - lazy: start-up, rich loads only when used

        columns = _count_columns(self.note) if self.count else RichProgress.get_default_columns()
        self._bar = RichProgress(*columns, transient=True, console=_stderr_console())
        self._bar.start()
        self._task = self._bar.add_task(self.description, total=self.total, completed=self.done)


def _count_columns(note: Callable[[], str] | None) -> list[Any]:
    """The description, the bar, ``done/total``, the time elapsed and the note."""
    from rich.progress import (  # noqa: PLC0415 - lazy: start-up, rich loads only when used
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    class Note(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(note() if note is not None else "")

    columns: list[Any] = [TextColumn("[progress.description]{task.description}"), BarColumn(),
                          MofNCompleteColumn(), TimeElapsedColumn()]
    return [*columns, Note()] if note is not None else columns


def _stderr_console() -> Any:
    from rich.console import Console  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    return Console(stderr=True)
