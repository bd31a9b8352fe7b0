"""Shared pieces of the W910-W923 rules (a wave-3 delivery folder): the base class, the way a
finding names rows, and the per-row checks of a table, which five rules report (one pass,
kept in the model for the others).

A check that fails on many rows is one finding (the count and the first row numbers), placed
at the first such row: a delivery with a systematic mistake gets one line per mistake.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple

from sylla.grammar.listdsl import DslError
from sylla.grammar.listdsl.prior import LOG_HIT, LOG_MISS
from sylla.grammar.trials.delivery import Table, field_starts

from ..delivery_context import DeliveryContext, DeliveryModel
from ..rule import Rule

if TYPE_CHECKING:
    from ..finding import Finding

#: tolerance when comparing nlp and nll with the recomputed values: values written with three
#: decimals (as in the request's example row, 3.456) still match
ABS_TOL, REL_TOL = 5e-4 + 1e-9, 1e-6


class DeliveryRule(Rule):
    """A rule over one file of a delivery folder; it answers only a ``DeliveryContext``."""

    language = "delivery"

    def check(self, ctx: object) -> Iterable["Finding"]:
        if not isinstance(ctx, DeliveryContext):
            return ()
        return self.check_delivery(ctx)

    def check_delivery(self, ctx: DeliveryContext) -> Iterator["Finding"]:
        return iter(())


class NoteRule(DeliveryRule):
    """A rule that reports the reading's notes of its kinds (``Note.kind``) about this file."""

    def check_delivery(self, ctx: DeliveryContext) -> Iterator["Finding"]:
        for note in ctx.model.notes(ctx.path):
            if note_code(note.kind) == self.code:
                yield ctx.at(self, note.message, note.line, note.column, note.severity)


#: the reading's note kinds and the rule that reports each; any other kind is about the columns
NOTE_CODE = {"columns": "W911", "quoting": "W912", "numbering": "W913", "samples": "W922"}


def note_code(kind: str) -> str:
    return NOTE_CODE.get(kind, "W911")


def rows(lines: list[int], limit: int = 8) -> str:
    shown = ", ".join(map(str, lines[:limit]))
    return shown + (f", ... ({len(lines):,} in all)" if len(lines) > limit else "")


def shown(value: str) -> str:
    """A field as a message quotes it: at most 40 characters."""
    return repr(value) if len(value) <= 40 else f"{value[:30]!r}... ({len(value):,} characters)"


def which(lines: list[int]) -> str:
    return f"row {lines[0]}" if len(lines) == 1 else f"rows {rows(lines)}"


_LABEL = re.compile(r"^\s*c([0-9]{3})\s*$")


def problem(label: str) -> int | None:
    m = _LABEL.match(label)
    return int(m.group(1)) if m else None


_SPACE = re.compile(r"\s+")


def norm(s: str) -> str:
    return _SPACE.sub("", s) if (" " in s or "\t" in s) else s


class RowFinding(NamedTuple):
    """One per-row check's finding: rule code, message, row, column, own severity (None: the rule's)."""

    code: str
    message: str
    line: int
    column: int
    severity: str | None


def row_findings(ctx: DeliveryContext) -> list[RowFinding]:
    """The per-row findings of this file's table, in the order the checks first failed; the
    samples are checked row by row only when they are one file (split parts number their rows
    each from 1)."""
    table = ctx.table
    if table is None:
        return []
    model = ctx.model
    if table is model.delivery.samples and len(table.texts) > 1:
        return []
    key = ("rows", table.path)
    if key not in model.memo:
        model.memo[key] = _row_checks(table, model, placed(table, model))
    found: list[RowFinding] = model.memo[key]
    return found


def placed(table: Table, model: DeliveryModel) -> bool:
    """Whether the rows can be checked against the trial files: there are some, and the file's
    ordering and trial numbering could be told."""
    return bool(model.trials) and "order" not in table.untold and "trial" not in table.untold


_CODES = {"bad label": "W915", "unparseable program": "W915", "ill-typed program": "W915", "evaluation error": "W915",
          "no prior": "W915", "accuracy": "W917", "test example": "W916", "predicted": "W918", "nll": "W919", "nlp": "W920"}
_WHAT = {
    "bad label": "have a problem that is not a c??? label",
    "unparseable program": "have a program that does not parse in the DSL",
    "ill-typed program": "have a program that is not of type [int] → [int]",
    "evaluation error": "have a program that fails on the trial's test input",
    "no prior": "have a program outside the prior's generator",
    "accuracy": "have accuracy ≠ (predicted == correct)",
    "test example": "do not have that trial's test example as input and correct",
    "predicted": "have a prediction other than the program's output on the input",
    "nll": "have an nll other than the likelihood on trials 1..N-1",
    "nlp": "have an nlp other than the request's prior",
}


def _row_checks(table: Table, model: DeliveryModel, have_trials: bool) -> list[RowFinding]:
    """Every row's program, accuracy and, with the trial files, test example, prediction,
    likelihood and prior; one finding per check that fails."""
    if not table.lines or not table.has("program"):
        return []
    scorer = model.scorer
    full = all(table.has(c) for c in ("input", "correct", "predicted", "accuracy"))
    fails: dict[str, list[int]] = defaultdict(list)
    first_detail: dict[str, str] = {}
    d = table.data
    progs, lines = d["program"], table.lines
    get = lambda c: d.get(c) or [None] * len(lines)
    labels = d.get("problem")
    probs: list[int | None] = [problem(p) for p in labels] if labels is not None else [None] * len(lines)
    orders, trials = get("order"), get("trial")
    have_trials = have_trials and table.has("order") and table.has("trial")
    inputs, corrects, preds, accs, nlps, nlls = (get(c) for c in ("input", "correct", "predicted", "accuracy", "nlp", "nll"))

    first_at: dict[str, int] = {}

    def fail(kind: str, line: int, detail: str, at: int | None = None) -> None:
        """``at``: the offset in the row's program the first such row is about."""
        fails[kind].append(line)
        if kind not in first_detail:
            first_detail[kind] = detail
            if at is not None:
                first_at[kind] = at

    exprs: dict[tuple[str, int | None], Any] = {}
    outs: dict[tuple[str, int, int], Any] = {}
    priors: dict[tuple[str, int | None], Any] = {}
    for k in range(len(lines)):
        p, line, text = probs[k], lines[k], progs[k]
        if p is None and labels is not None:
            fail("bad label", line, f"row {line}: problem {shown(labels[k])}")
            continue  # and its DSL's range is unknown
        ekey = (text, p)
        expr = exprs.get(ekey)
        if expr is None:
            expr = exprs[ekey] = scorer.program(text, p)
        if isinstance(expr, DslError):
            kind = "ill-typed program" if expr.kind == "type" else "unparseable program"
            fail(kind, line, f"row {line}: {expr.message} at column {expr.start + 1} of the program", expr.start)
            continue
        if full:
            pred_norm = norm(preds[k])
            want_acc = int(pred_norm == norm(corrects[k]))
            if accs[k] != want_acc:
                fail("accuracy", line, f"row {line}: accuracy {accs[k]} but predicted {preds[k]} {'=' if want_acc else '≠'} correct {corrects[k]}")
        if not have_trials or p is None:
            continue
        t, o = trials[k], orders[k]
        okey = (text, p, o)
        out: Any = outs.get(okey)
        if out is None:
            out = outs[okey] = scorer.outputs(text, p, o) or False
        if not out or isinstance(out, DslError) or not 1 <= t <= len(out.shown):
            continue
        if full:
            test_in, test_out = scorer.shown_examples[(p, o)][t - 1]
            if norm(inputs[k]) != test_in or norm(corrects[k]) != test_out:
                fail("test example", line, f"row {line}: input {inputs[k]} -> {corrects[k]}, but trial {t} of "
                     f"c{p:03d}_{o}.json tests {test_in} -> {test_out}")
            err = out.errors[t - 1]
            if err is not None and preds[k].strip() in ("", "[]") and not accs[k]:
                fail("evaluation error", line, f"row {line}: the program fails on the test input ({err})")
            elif err is not None:
                fail("predicted", line, f"row {line}: predicted {preds[k]}, but the program fails on the input ({err})")
            elif pred_norm != out.shown[t - 1]:
                fail("predicted", line, f"row {line}: predicted {preds[k]}, but the program gives {out.shown[t - 1]}")
        given = nlls[k]
        if given is not None:
            hits = out.hits_before[t - 1]
            want = -(hits * LOG_HIT + (t - 1 - hits) * LOG_MISS)
            if abs(given - want) > ABS_TOL + REL_TOL * abs(want):
                fail("nll", line, f"row {line}: nll {given}, recomputed on trials 1..{t - 1}: {want:.6f}")
        given = nlps[k]
        if given is not None:
            want_p = priors.get(ekey)
            if want_p is None:
                want_p = priors[ekey] = scorer.nlp(text, p)
            if isinstance(want_p, DslError):
                fail("no prior", line, f"row {line}: {want_p.message}")
            elif abs(given - want_p) > ABS_TOL + REL_TOL * abs(want_p):
                fail("nlp", line, f"row {line}: nlp {given}, the request's prior gives {want_p:.6f}")
    base = os.path.basename(table.path)
    doc = model.documents[table.path]
    out_findings: list[RowFinding] = []
    for kind, ls in fails.items():
        note = " (these predicted nothing and count as wrong)" if kind == "evaluation error" else ""
        verb = _WHAT[kind] if len(ls) > 1 else _WHAT[kind].replace("do not have", "does not have").replace("have", "has", 1)
        column = _program_column(table, doc.text, doc.lines, ls[0], first_at[kind]) if kind in first_at else 1
        out_findings.append(RowFinding(
            _CODES[kind], f"{base}: {len(ls):,} row{'s' if len(ls) > 1 else ''} {verb}{note} ({which(ls)}); "
            f"first: {first_detail[kind]}", ls[0], column, "info" if kind == "evaluation error" else None))
    return out_findings


def _program_column(table: Table, text: str, index: Any, line: int, at: int) -> int:
    """The 1-based column in the file of offset ``at`` of the (stripped) program in row ``line``,
    so that a finding about a program stands where the program goes wrong (1 when it cannot be told)."""
    if "program" not in table.columns or table.work is None or text is not table.text:
        return 1
    start = index.offset(line, 1)
    end = table.work.find("\n", start)
    row = table.work[start:end if end >= 0 else len(table.work)]
    starts = field_starts(row)
    k = table.columns.index("program")
    if k >= len(starts):
        return 1
    offset, quoted = starts[k]
    value = row[offset + quoted:]
    lead = len(value) - len(value.lstrip())
    return offset + quoted + lead + at + 1


class RowRule(DeliveryRule):
    """A rule that reports the per-row checks of its code (``row_findings``) for this file."""

    def check_delivery(self, ctx: DeliveryContext) -> Iterator["Finding"]:
        for f in row_findings(ctx):
            if f.code == self.code:
                yield ctx.at(self, f.message, f.line, f.column, f.severity)
