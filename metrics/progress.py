"""Progress bars on stderr for runs that take more than about a second, and nothing otherwise.

A bar is drawn only when stderr is a terminal (or ``enabled=True``) and only once the command has
been running for ``DELAY`` seconds (``SYLLA_PROGRESS_DELAY`` overrides it), so quick runs and pipes
stay quiet whatever the row count. Reading advances by bytes, batch by batch (never one jump from 0
to 100 %); computing advances by plugin and run, so the bar keeps moving after the log is read.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import AbstractContextManager
from typing import Any

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
    """One bar of ``total`` units (bytes read, or steps computed)."""

    def __init__(self, total: int, description: str, enabled: bool | None = None) -> None:
        start_clock()
        self.total = max(int(total), 1)
        self.description = description
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.done = 0
        self._bar: Any = None
        self._task: Any = None

    def estimate(self, rows_read: int, bytes_read: int) -> None:
        """Kept for readers that report rows; drawing depends on elapsed time only."""

    def advance(self, done: int) -> None:
        """Set the units done so far (bytes read, steps computed)."""
        self.done = done
        if not self.enabled:
            return
        if self._bar is None:
            assert _T0 is not None
            if time.monotonic() - _T0 < _delay() or done >= self.total:
                return
            from rich.progress import Progress as RichProgress  # noqa: PLC0415 - lazy: start-up, rich loads only when used

            self._bar = RichProgress(transient=True, console=_stderr_console())
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        self._bar.update(self._task, completed=done)

    def step(self, n: int = 1) -> None:
        self.advance(self.done + n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self.total)
            self._bar.stop()
            self._bar = None


def _stderr_console() -> Any:
    from rich.console import Console  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    return Console(stderr=True)
