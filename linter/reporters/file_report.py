"""``FileReport``: what every reporter receives, one per file (the display path, the lint result).

Apart from the package's ``__init__`` so that the reporters import it from below, and the
package imports the reporters without a cycle."""

from __future__ import annotations

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

from ..engine import LintResult
from ..finding import Finding

if TYPE_CHECKING:
    from typing import Any


@record()
class FileReport:
    path: str
    result: LintResult[Any]  # any language's parse: reporters read only its text and line index

    def position(self, offset: int) -> tuple[int, int]:
        return self.result.parse.lines.line_col(offset)

    def range(self, f: Finding) -> tuple[int, int, int, int]:
        line, col = self.position(f.span.start)
        end_line, end_col = self.position(f.span.end)
        return line, col, end_line, end_col
