"""A progress bar on stderr for big logs, and nothing otherwise.

It is shown only when stderr is a terminal and the log is over a million rows (estimated from the
bytes of the first file read): small runs and pipes stay quiet.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager
from typing import Any

THRESHOLD_ROWS = 1_000_000


class Progress(AbstractContextManager["Progress"]):
    """Advance by bytes read; ``enabled`` decides whether anything is drawn."""

    def __init__(self, total_bytes: int, description: str, enabled: bool | None = None) -> None:
        self.total = max(total_bytes, 1)
        self.description = description
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        self._task: Any = None

    def estimate(self, rows_read: int, bytes_read: int) -> None:
        """Start drawing once the row estimate for the whole log passes the threshold."""
        if not self.enabled or self._bar is not None or bytes_read <= 0:
            return
        if rows_read * self.total / bytes_read > THRESHOLD_ROWS:
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(transient=True, console=_stderr_console())
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
            self._bar.update(self._task, completed=bytes_read)

    def advance(self, bytes_read: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=bytes_read)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)
