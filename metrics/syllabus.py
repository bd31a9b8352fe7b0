"""Load a syllabus for the metrics through the language core (never a parser of our own)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import MAX_EPISODES, absurd_block, count_text

from .errors import EXIT_USAGE, MetricsError

if TYPE_CHECKING:
    from sylla.grammar.core import LineIndex
    from sylla.grammar.syllabus.model import Syllabus


def load_syllabus(path: str | Path) -> "Syllabus":
    """Parse and require a clean syllabus: a schedule built from an invalid one would misalign
    every episode after the first problem."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise MetricsError("no such syllabus file", str(path), exit_code=EXIT_USAGE) from None
    except OSError as exc:
        raise MetricsError(f"cannot read syllabus: {exc.strerror}", str(path),
                           exit_code=EXIT_USAGE) from None
    result = parse(data, str(path))
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if result.model is None or errors:
        first = errors[0] if errors else (result.diagnostics[0] if result.diagnostics else None)
        if first is None:
            raise MetricsError("no syllabus could be read", str(path))
        line, col = result.lines.line_col(first.span.start)
        raise MetricsError(f"{first.message} (see `sylla lint {path}`)", str(path), line, column=col)
    if not result.model.blocks:
        raise MetricsError("the syllabus schedules no episodes", str(path))
    _refuse_absurd(result.model, result.lines, str(path))
    return result.model


def _refuse_absurd(model: "Syllabus", lines: "LineIndex", path: str) -> None:
    """A schedule of more than ``MAX_EPISODES`` episodes is refused, at the count that makes
    it so (the one lint warns about, H506): every consumer makes per-episode data from it (a
    count of 10^12 was 7 TiB, issue 38)."""
    found = absurd_block(model)
    if found is None:
        return
    block, total = found
    line, col = lines.line_col((block.count_span or block.span).start)
    what = f"count {count_text(block.count)}" if block.repeated else "this block"
    raise MetricsError(f"{what} makes the schedule at least {count_text(total)} episodes long, more than the "
                       f"{MAX_EPISODES:,} sylla simulates or measures (see `sylla lint {path}`, H506)",
                       path, line, column=col)
