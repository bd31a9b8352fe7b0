"""``apply_fixes``: apply the fixes of a set of findings as one batch of non-overlapping edits.

A fix applies whole or not at all: when one of its edits overlaps an edit already accepted,
the fix is skipped (the next lint offers it again). Edits of different fixes that only meet
conflict too: two insertions at one offset would come in arbitrary order, and an insertion
after a comma that another fix deletes would lose its separator. Text outside the edited spans is
unchanged; applying the fixes of a clean lint changes nothing.
"""

from __future__ import annotations

from typing import Iterable

from .finding import Edit, Finding


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.span.start == b.span.start:
        return True
    return a.span.start < b.span.end and b.span.start < a.span.end


def _touches(a: Edit, b: Edit) -> bool:
    """Edits of two fixes that overlap or meet: an insertion right after a comma another fix
    deletes relies on that comma, so the two must not apply in the same round."""
    return a.span.start <= b.span.end and b.span.start <= a.span.end


def apply_fixes(text: str, findings: Iterable[Finding], safe_only: bool = True) -> str:
    accepted: list[Edit] = []
    candidates = [f.fix for f in findings if f.fix is not None and (f.fix.safe or not safe_only)]
    candidates.sort(key=lambda fix: min((e.span.start for e in fix.edits), default=0))
    for fix in candidates:
        if not fix.edits or any(_touches(e, a) for e in fix.edits for a in accepted):
            continue
        if any(_overlaps(e, o) for i, e in enumerate(fix.edits) for o in fix.edits[i + 1 :]):
            continue
        accepted.extend(fix.edits)
    out = text
    for edit in sorted(accepted, key=lambda e: e.span.start, reverse=True):
        out = out[: edit.span.start] + edit.new_text + out[edit.span.end :]
    return out


def fix_until_stable(text: str, relint, safe_only: bool = True, rounds: int = 10) -> str:  # noqa: ANN001
    """Apply fixes, lint again and repeat until nothing changes (as ruff does): a fix that was
    skipped for overlapping another gets its turn in the next round."""
    for _ in range(rounds):
        fixed = apply_fixes(text, relint(text), safe_only)
        if fixed == text:
            return text
        text = fixed
    return text
