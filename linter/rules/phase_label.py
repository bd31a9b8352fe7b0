"""P301 phase-label-format."""

from __future__ import annotations

import re

from sylla.grammar.core import Diagnostic, Severity
from sylla.grammar.syllabus.lalr import to_int

from ..context import Context
from ..finding import Edit, Finding, Fix
from ..rule import Rule, rule_doc

#: near-miss labels (``1-Train``, ``train 1``), compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
_LOOSE = r"^\s*(\d+)\s*[-_.:/ ]?\s*(train|test)(?:ing)?\s*$"
_REVERSED = r"^\s*(train|test)(?:ing)?\s*[-_.:/ ]?\s*(\d+)\s*$"


def suggest_label(label: str) -> str | None:
    """The conventional spelling of a near-miss label (``1-Train`` -> ``1.train``), or None."""
    m = re.match(_LOOSE, label, re.I)
    if m:
        number, kind = to_int(m.group(1)), m.group(2)
    else:
        m = re.match(_REVERSED, label, re.I)
        if m is None:
            return None
        number, kind = to_int(m.group(2)), m.group(1)
    return None if number is None or number.bit_length() > _SUGGESTED_BITS else f"{number}.{kind.lower()}"


#: a suggested label's number stays short enough to write in a message (a label of thousands
#: of digits is not a near miss)
_SUGGESTED_BITS = 64
#: the longest label a message quotes whole
_SHOWN = 60


class PhaseLabelFormat(Rule):
    __doc__ = rule_doc(
        'A `$phase` label is not exactly `<integer>.<train|test>`.',
        'Labels must be a decimal integer, a dot, and `train` or `test` in lower case, with no spaces, '
        'other separators, other kinds ("eval", "Train") or leading zeros.',
        '{"$phase": "1-Train"}',
        '{"$phase": "1.train"}',
        "When the label is a near miss (case, separator, spaces, order), the fix rewrites it in "
        "the conventional form (unsafe: it is offered in the editor and with `--diff`, not applied by `--fix`, because the new label may collide with another phase).",
        why="**Why it matters.** The metrics framework splits logs into phases by parsing these "
        "labels; it supports no other annotation, so a block under an odd label is attributed to "
        "no phase and every metric of that phase is missing.",
    )
    reads_structure = False  # it reports the typo the structural rules wait for
    code, name, severity, fixable = "P301", "phase-label-format", Severity.ERROR, True

    def claims(self, diag: Diagnostic, ctx: Context) -> bool:
        # the label's value; a "$phase" key where it does not belong (a leaf's) is S206's
        return (
            diag.kind == "schema" and bool(diag.path) and diag.path[-1] == "$phase"
            and diag.keyword not in ("propertyNames", "additionalProperties")
        )

    def from_diagnostic(self, diag: Diagnostic, ctx: Context) -> Finding:
        source = ctx.text[diag.span.start : diag.span.end]
        label = source[1:-1] if source.startswith('"') and source.endswith('"') else source
        better = suggest_label(label) if source.startswith('"') else None
        shown = source if len(source) <= _SHOWN else source[: _SHOWN - 1] + "…"
        message = f'phase label must be "<n>.train" or "<n>.test", got {shown}'
        digits = re.fullmatch(r"[1-9][0-9]*\.(?:train|test)", label)
        if digits is not None:
            message += f": its number has {label.index('.'):,} digits, more than a reader converts to an integer"
        fix = None
        if better is not None:
            message += f' (did you mean "{better}"?)'
            # unsafe: the corrected label may collide with another phase (the editor offers it)
            fix = Fix(f'Write "{better}"', (Edit(diag.span, f'"{better}"'),), safe=False)
        return ctx.finding(self, message, diag.span, fix)
