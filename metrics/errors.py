"""The one exception the metrics plugin raises for bad input.

Every problem a user can cause (a missing file, a NaN reward, a log that disagrees with its
syllabus) becomes a `MetricsError` carrying the file and row it concerns, so the command can print
``sylla: <file>:<row>: message`` and exit with a code instead of showing a traceback.
"""

from __future__ import annotations

EXIT_FINDINGS = 1
EXIT_USAGE = 2


class MetricsError(Exception):
    """A user-facing error: ``file`` and ``row`` locate it, ``exit_code`` is 2 for usage/IO."""

    def __init__(
        self,
        message: str,
        file: str | None = None,
        row: int | None = None,
        exit_code: int = EXIT_FINDINGS,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.row = row
        self.exit_code = exit_code
        self.column = column

    def location(self) -> str:
        """``file:row:col: ``, ``file:row: ``, ``file: `` or nothing, for the front of the
        printed line (a syllabus has columns; a log has rows)."""
        if self.file is None:
            return ""
        if self.row is None:
            return f"{self.file}: "
        if self.column is None:
            return f"{self.file}:{self.row}: "
        return f"{self.file}:{self.row}:{self.column}: "

    def __str__(self) -> str:
        return f"{self.location()}{self.message}"
