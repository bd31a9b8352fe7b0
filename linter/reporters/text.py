"""``path:line:col: CODE [name] message``, the source line with a caret, and a summary."""

from __future__ import annotations

from .file_report import FileReport


def render(reports: list[FileReport]) -> str:
    out: list[str] = []
    counts = {"error": 0, "warning": 0, "info": 0}
    fixable = 0
    for report in reports:
        lines = report.result.parse.lines
        for f in report.result.findings:
            line, col, end_line, end_col = report.range(f)
            counts[f.severity.value] += 1
            fixable += f.fix is not None and f.fix.safe
            mark = " [*]" if f.fix is not None and f.fix.safe else ""
            out.append(f"{report.path}:{line}:{col}: {f.code} [{f.name}] {f.severity.value}: {f.message}{mark}")
            if report.result.text:
                source = lines.line_text(line)
                width = max(1, (end_col - col) if end_line == line else len(source) - col + 1)
                out.append(f"  {source.expandtabs(1)}")
                out.append("  " + " " * (col - 1) + "^" + "~" * min(width - 1, 200))
    total = sum(counts.values())
    if total == 0:
        out.append(f"All checks passed ({len(reports)} file{'s' if len(reports) != 1 else ''}).")
    else:
        parts = [f"{n} {k}{'s' if n != 1 and k != 'info' else ''}" for k, n in counts.items() if n]
        summary = f"Found {total} finding{'s' if total != 1 else ''} ({', '.join(parts)}) in {len(reports)} file{'s' if len(reports) != 1 else ''}."
        if fixable:
            summary += f" {fixable} fixable with --fix ([*])."
        out.append(summary)
    return "\n".join(out) + "\n"
