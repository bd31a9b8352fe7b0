"""Code actions: each fix as a quick fix, fix-all, and "ignore CODE here".

Quick fixes come from the findings the linter attached fixes to; the fix-all action is the
linter's ``fix_all`` loop that ``sylla lint --fix`` runs (safe fixes, lint again, until stable),
as one whole-document edit, so the editor never fixes differently.
"Ignore" writes the suppression the linter reads, and its title says which: "Ignore CODE on
this line" appends a ``// sylla: ignore[CODE]`` comment where comments are allowed (JSONC, or a
file that already has comments); in strict JSON "Ignore CODE in this file" adds the code to the
top-level ``"sylla_ignore"`` list, which silences it for the whole file.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import NonJsonKind, Syllabus
from sylla.linter.fixes import fix_all
from sylla.linter.languages import lint_text

from .diagnostics import LintOutcome
from .positions import PositionMap

FIX_ALL = "source.fixAll.sylla"
_IGNORE_COMMENT = re.compile(r"//\s*sylla:\s*ignore\[([^\]]*)\]")


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


def _overlaps(span: Span, want: Span) -> bool:
    return span.start <= want.end and want.start <= span.end


def _edit(outcome: LintOutcome, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={outcome.uri: edits})


def comments_allowed(uri: str, model: Syllabus | None) -> bool:
    """JSONC files, and files that already have comments (the author's engine accepts them)."""
    if uri.lower().endswith((".jsonc", ".json5")):
        return True
    return model is not None and any(n.kind in (NonJsonKind.LINE_COMMENT, NonJsonKind.BLOCK_COMMENT) for n in model.non_json)


def wants_fix_all(outcome: LintOutcome, only: Sequence[str] | None) -> bool:
    """Whether a code-action request gets a Fix All (the client asks for it, a safe fix exists)."""
    return _wanted(FIX_ALL, only) and any(f.fix is not None and f.fix.safe for f in outcome.findings)


def fix_all_text(outcome: LintOutcome, parsed: Any = None) -> str:
    """The document after Fix All: ``sylla.linter.fixes.fix_all`` on its text with its path and
    config, safe fixes only (as ``sylla lint --fix`` without ``--unsafe-fixes``). Runs in the
    worker thread (it lints up to once a round); ``parsed`` is the version's parse, when the
    caller has it. A leading byte-order mark in the buffer (the linter's text has none) stays."""
    if outcome.fixed is not None:
        return outcome.fixed
    first = lint_text(outcome.text, outcome.path, outcome.config, parsed=parsed, language=outcome.language)
    fixed = fix_all(first, lambda t: lint_text(t, outcome.path, outcome.config, language=first.language)).text
    if fixed == first.text:
        fixed = outcome.text
    elif outcome.text.startswith("\ufeff") and not fixed.startswith("\ufeff"):
        fixed = "\ufeff" + fixed
    outcome.fixed = fixed
    return fixed


def code_actions(
    outcome: LintOutcome, want: Span, only: Sequence[str] | None, model: Syllabus | None,
    fixed: str | None = None,
) -> list[types.CodeAction]:
    """The actions for a range; ``fixed`` is ``fix_all_text`` of the document, which the
    caller computes off the event loop when ``wants_fix_all`` (else no Fix All is offered)."""
    # a cursor anywhere on a finding's line offers its actions, as editors show them per line
    text = outcome.text
    want = Span(text.rfind("\n", 0, want.start) + 1, outcome.positions.line_end(want.end))
    here = [(f, d) for f, d in zip(outcome.findings, outcome.diagnostics) if _overlaps(f.span, want)]
    actions: list[types.CodeAction] = []
    if _wanted(types.CodeActionKind.QuickFix.value, only):
        fixes = [(f, d) for f, d in here if f.fix is not None]
        for f, d in fixes:
            edits = [types.TextEdit(range=outcome.positions.range(e.span), new_text=e.new_text) for e in f.fix.edits]
            # ruff's distinction: an unsafe fix changes the experiment, so it says so and is
            # never the preferred (auto-applied) action; fix-all below applies safe fixes only
            unsafe = "" if f.fix.safe else ", unsafe: changes the experiment"
            actions.append(
                types.CodeAction(
                    title=f"{f.fix.description} ({f.code}{unsafe})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[d],
                    is_preferred=len(fixes) == 1 and f.fix.safe,
                    edit=_edit(outcome, edits),
                )
            )
        done: set[tuple[str, int]] = set()
        for f, d in here:
            line = outcome.positions.line_of(f.span.start)
            if (f.code, line) in done:
                continue
            done.add((f.code, line))
            edit = ignore_edit(outcome, f.code, f.span.start, model)
            if edit is not None:
                where = "on this line" if comments_allowed(outcome.uri, model) else "in this file"
                actions.append(
                    types.CodeAction(
                        title=f"Ignore {f.code} {where}",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[d],
                        edit=_edit(outcome, [edit]),
                    )
                )
    if fixed is not None and fixed != outcome.text and wants_fix_all(outcome, only):
        # one edit replacing the whole buffer, its end counted in the buffer's own text
        whole = PositionMap(outcome.text, outcome.positions.encoding).range(Span(0, len(outcome.text)))
        actions.append(
            types.CodeAction(
                title="sylla: fix all safe problems",
                kind=FIX_ALL,
                edit=_edit(outcome, [types.TextEdit(range=whole, new_text=fixed)]),
            )
        )
    return actions


def ignore_edit(outcome: LintOutcome, code: str, offset: int, model: Syllabus | None) -> types.TextEdit | None:
    """The edit that suppresses ``code`` for a finding starting at ``offset``."""
    positions = outcome.positions
    if comments_allowed(outcome.uri, model):
        end = positions.line_end(offset)
        line_start = outcome.text.rfind("\n", 0, offset) + 1
        line = outcome.text[line_start:end]
        m = _IGNORE_COMMENT.search(line)
        if m:
            codes = [c.strip() for c in m.group(1).split(",") if c.strip()]
            if code in codes:
                return None
            at = line_start + m.end(1)
            return types.TextEdit(range=positions.range(Span(at, at)), new_text=f", {code}" if codes else code)
        return types.TextEdit(range=positions.range(Span(end, end)), new_text=f"  // sylla: ignore[{code}]")
    return _sylla_ignore_edit(outcome, code, model)


def _sylla_ignore_edit(outcome: LintOutcome, code: str, model: Syllabus | None) -> types.TextEdit | None:
    if model is None or model.form != "object" or not model.top_level_keys:
        return None
    positions = outcome.positions
    text = outcome.text
    for key in model.top_level_keys:
        if key.name != "sylla_ignore":
            continue
        listed: Any = model.value.get("sylla_ignore") if isinstance(model.value, dict) else None
        if not isinstance(listed, list) or text[key.value_span.end - 1 : key.value_span.end] != "]":
            return None
        if code in listed:
            return None
        at = key.value_span.end - 1
        sep = ", " if listed else ""
        return types.TextEdit(range=positions.range(Span(at, at)), new_text=f"{sep}{json.dumps(code)}")
    first = model.top_level_keys[0].span.start
    line_start = text.rfind("\n", 0, first) + 1
    indent = text[line_start:first]
    if indent.strip():  # keys share a line with "{": keep it on that line
        new_text = f'"sylla_ignore": [{json.dumps(code)}], '
    else:
        new_text = f'"sylla_ignore": [{json.dumps(code)}],\n{indent}'
    return types.TextEdit(range=positions.range(Span(first, first)), new_text=new_text)


