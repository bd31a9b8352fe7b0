"""What the linter reports: findings with a rule code, a span, and optionally a fix.

Findings carry offsets into the text (like the model); reporters and the language server
convert them to lines and columns at the edge. A fix is a list of text edits that apply
together; applying the fixes of a clean lint to its output changes nothing.
"""

from __future__ import annotations

from sylla.grammar.core import Severity, Span
from sylla.kit.record import field, record


@record(frozen=True, slots=True)
class Edit:
    """Replace ``text[span.start:span.end]`` with ``new_text`` (an insertion when empty)."""

    span: Span
    new_text: str


@record(frozen=True, slots=True)
class Fix:
    description: str
    edits: tuple[Edit, ...]
    #: safe fixes are applied by ``--fix``; unsafe ones are only offered (editor, --diff)
    safe: bool = True


@record(frozen=True, slots=True)
class RelatedSpan:
    message: str
    span: Span


@record(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    span: Span
    fix: Fix | None = None
    related: tuple[RelatedSpan, ...] = field(default=())
