"""In-file suppression: ``// sylla: ignore[CODE, ...]`` on a line, or top-level ``"sylla_ignore"``.

A comment suppresses findings that start on its line (``# noqa`` style); without codes it
suppresses all of them. ``"sylla_ignore": ["CODE", ...]`` works in strict JSON files, which
cannot hold comments. Codes may be prefixes (``"H5"``), as in ``select``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sylla.grammar.model import LineIndex, NonJsonKind, Syllabus

_DIRECTIVE = re.compile(r"sylla:\s*ignore(?:\[([^\]]*)\])?")
_COMMENTS = (NonJsonKind.LINE_COMMENT, NonJsonKind.BLOCK_COMMENT)


@dataclass
class Suppressions:
    file_codes: tuple[str, ...] = ()
    #: line -> codes (an empty tuple means every code)
    lines: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def suppressed(self, code: str, line: int) -> bool:
        if any(code.startswith(c) for c in self.file_codes):
            return True
        if line in self.lines:
            codes = self.lines[line]
            return not codes or any(code.startswith(c) for c in codes)
        return False


def suppressions(model: Syllabus | None, lines: LineIndex) -> Suppressions:
    out = Suppressions()
    if model is None:
        return out
    value = model.value if isinstance(model.value, dict) else {}
    listed = value.get("sylla_ignore")
    if isinstance(listed, list):
        out.file_codes = tuple(c.strip() for c in listed if isinstance(c, str) and c.strip())
    for item in model.non_json:
        if item.kind not in _COMMENTS:
            continue
        m = _DIRECTIVE.search(item.text(model.text))
        if not m:
            continue
        codes = tuple(c.strip() for c in (m.group(1) or "").split(",") if c.strip())
        first, _ = lines.line_col(item.span.start)
        last, _ = lines.line_col(max(item.span.start, item.span.end - 1))
        for line in range(first, last + 1):
            out.lines[line] = () if not codes or () == out.lines.get(line, None) else out.lines.get(line, ()) + codes
    return out
