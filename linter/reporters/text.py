"""``path:line:col: CODE [name] message``, the source line (or a window of it) with a caret, and a summary.

A line longer than ``WHOLE`` characters is shown as a window around the finding's column, with
``…`` where the line goes on, as ruff and rustc do: a minified syllabus is one line, and printing
it whole under each of its findings made output of line length × findings (a 98 KB syllabus gave
589 MB, a 7.9 MB trial file was killed at 23 GB, issue 38). The window is cut from the text by
offsets (``LineIndex.line_span``), never by copying the line, so a finding costs the same on a
line of any length, and the report is written as it is made, so memory does not grow with it.
"""

from __future__ import annotations

import io

from sylla.kit.no_typing import TYPE_CHECKING

from .file_report import FileReport

if TYPE_CHECKING:
    from typing import TextIO

#: the longest source line shown whole under a finding (hand-written files stay as they were)
WHOLE = 200
#: the characters shown of a longer line, around the finding's column
WINDOW = 160
#: of the window, at most this many characters before the finding's column
BEFORE = 60
#: the longest run of ``~`` under a finding
MAX_TILDES = 200
#: control characters shown as their Unicode control pictures (one column each, so the caret
#: stays under its character; a raw NUL or escape would garble the terminal); a tab is a space
_VISIBLE = {c: chr(0x2400 + c) for c in range(0x20) if c != 0x09} | {0x09: " ", 0x7F: "\u2421"}


def render(reports: list[FileReport]) -> str:
    out = io.StringIO()
    write(reports, out)
    return out.getvalue()


def write(reports: list[FileReport], out: "TextIO") -> None:
    counts = {"error": 0, "warning": 0, "info": 0}
    fixable = 0
    for report in reports:
        text = report.result.text
        lines = report.result.parse.lines
        for f in report.result.findings:
            line, col, end_line, end_col = report.range(f)
            counts[f.severity.value] += 1
            fixable += f.fix is not None and f.fix.safe
            mark = " [*]" if f.fix is not None and f.fix.safe else ""
            out.write(f"{report.path}:{line}:{col}: {f.code} [{f.name}] {f.severity.value}: {f.message}{mark}\n")
            if text:
                shown, at, width = _window(text, lines.line_span(line), col, end_col if end_line == line else None)
                out.write(f"  {shown}\n")
                out.write("  " + " " * at + "^" + "~" * min(width - 1, MAX_TILDES) + "\n")
    total = sum(counts.values())
    if total == 0:
        out.write(f"All checks passed ({len(reports)} file{'s' if len(reports) != 1 else ''}).\n")
    else:
        parts = [f"{n} {k}{'s' if n != 1 and k != 'info' else ''}" for k, n in counts.items() if n]
        summary = f"Found {total} finding{'s' if total != 1 else ''} ({', '.join(parts)}) in {len(reports)} file{'s' if len(reports) != 1 else ''}."
        if fixable:
            summary += f" {fixable} fixable with --fix ([*])."
        out.write(summary + "\n")


def _window(text: str, span: tuple[int, int], col: int, end_col: int | None) -> tuple[str, int, int]:
    """What to show of the line ``span`` for a finding at column ``col`` (ending at ``end_col``
    on the same line, None: on a later one): the shown text, the caret's column in it (0-based)
    and the width to underline."""
    start, stop = span
    length = stop - start
    width = max(1, (end_col - col) if end_col is not None else length - col + 1)
    if length <= WHOLE:
        return text[start:stop].translate(_VISIBLE), col - 1, width
    first = max(0, min(col - 1 - BEFORE, length - WINDOW))
    last = min(length, first + WINDOW)
    head = "…" if first > 0 else ""
    tail = "…" if last < length else ""
    shown = head + text[start + first : start + last].translate(_VISIBLE) + tail
    at = col - 1 - first + len(head)
    return shown, at, max(1, min(width, last - (col - 1)))
