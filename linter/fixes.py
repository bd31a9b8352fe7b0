"""Fixes: ``apply_fixes`` applies one batch of non-overlapping edits; ``fix_all`` is the loop
(apply, lint again, repeat until stable) that ``sylla lint --fix`` and the editor's Fix All
both call, so the two never fix a text differently.

A fix applies whole or not at all: when one of its edits overlaps an edit already accepted,
the fix is skipped (the next lint offers it again). Edits of different fixes that only meet
conflict too: two insertions at one offset would come in arbitrary order, and an insertion
after a comma that another fix deletes would lose its separator. Text outside the edited spans is
unchanged; applying the fixes of a clean lint changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Protocol, TypeVar

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


#: how many rounds of fixes a file gets at most: a fix skipped for meeting another waits a round,
#: so a file needs as many rounds as its longest chain of such fixes (two or three in practice)
ROUNDS = 10


class Lintable(Protocol):
    """What the loop needs of a lint: the text it linted, its findings, its parse."""

    @property
    def text(self) -> str: ...

    findings: list[Finding]
    parse: Any


L = TypeVar("L", bound=Lintable)


@dataclass(frozen=True)
class Fixed(Generic[L]):
    """The result of the fix loop: the fixed text and the lint of exactly that text (so the
    CLI reports it without linting a third time)."""

    text: str
    result: L
    rounds: int  # how many rounds changed the text


def fix_all(first: L, lint: Callable[[str], L], *, unsafe: bool = False, rounds: int = ROUNDS) -> Fixed[L]:
    """The one fix loop, behind ``sylla lint --fix``/``--diff`` and the editor's Fix All.

    ``first`` is the lint of the text as it is; ``lint`` lints another text of the same file
    (same path, same config). Each round applies the fixes of the last lint (safe ones only,
    unless ``unsafe``: the CLI's ``--unsafe-fixes``) and lints the result, until a round changes
    nothing or ``rounds`` rounds have run (as ruff does): a fix skipped for meeting another gets
    its turn in the next round. A text that does not parse gets no fixes, and a round whose
    result would not parse is not applied: the loop stops with the last text that parsed.
    Both callers get the same bytes from the same text because both run this function.
    """
    text, result, done = first.text, first, 0
    if not _parses(first):
        return Fixed(text, result, 0)
    for _ in range(rounds):
        fixed = apply_fixes(text, result.findings, safe_only=not unsafe)
        if fixed == text:
            break
        after = lint(fixed)
        if not _parses(after):
            break
        text, result, done = fixed, after, done + 1
    return Fixed(text, result, done)


def _parses(result: Lintable) -> bool:
    return result.parse is not None and bool(result.parse.syntax_ok)
