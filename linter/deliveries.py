"""``sylla lint DELIVERY_DIR --trials json/``: check a wave-3 delivery before it ships.

Reads the folder with ``sylla.grammar.trials.delivery`` (which records each deviation of shape
once and undoes it where that is unambiguous), then checks columns, quoting, numbering,
completeness, and, with the trial files at hand, every row's test example, accuracy,
prediction, likelihood and prior; the order of best-so-far rows; samples; the description.
A check that fails on many rows is one finding (the count and the first row numbers), placed
at the first such row: a delivery with a systematic mistake gets one line per mistake.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from sylla.grammar.core import LineIndex, Severity, Span
from sylla.grammar.listdsl import DslError
from sylla.grammar.listdsl.prior import LOG_HIT, LOG_MISS
from sylla.grammar.trials.delivery import Delivery, Table, field_starts, paragraphs, read_delivery
from sylla.grammar.trials.model import ORDERINGS, RUNS, SAMPLES, TRIALS
from sylla.grammar.trials.scoring import Scorer, load_trials

from .engine import LintResult
from .finding import Finding
from .registry import rule_for

#: tolerance when comparing nlp and nll with the recomputed values: values written with three
#: decimals (as in the request's example row, 3.456) still match
ABS_TOL, REL_TOL = 5e-4 + 1e-9, 1e-6
_NOTE_CODE = {"columns": "W911", "quoting": "W912", "numbering": "W913", "samples": "W922"}


class DeliveryParse:
    """The parse-shaped object reporters read (``text``, ``lines``, ``syntax_ok``); the line
    index is the file's own, built only when a reporter asks for a position."""

    syntax_ok = True

    def __init__(self, file: "_File") -> None:
        self._file = file
        self.text = file.text

    @property
    def lines(self) -> LineIndex:
        return self._file.index


#: the findings of one delivery file, in the shape every reporter reads
DeliveryResult = LintResult[DeliveryParse]


@dataclass
class _File:
    path: str
    text: str
    findings: list[Finding] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._index: LineIndex | None = None

    @property
    def index(self) -> LineIndex:
        """Built on first use: a clean 200,000-row file needs no line index."""
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    @index.setter
    def index(self, value: LineIndex) -> None:
        self._index = value

    def add(self, code: str, message: str, line: int = 0, column: int = 1, severity: str | None = None) -> None:
        rule = rule_for(code)
        assert rule is not None, code
        start = self.index.offset(line, column) if line else 0
        end = start if not line else self.index.offset(line, len(self.index.line_text(line)) + 1)
        sev = Severity(severity) if severity else rule.severity
        self.findings.append(Finding(rule.code, rule.name, sev, message, Span(start, end)))


def _rows(lines: list[int], limit: int = 8) -> str:
    shown = ", ".join(map(str, lines[:limit]))
    return shown + (f", ... ({len(lines):,} in all)" if len(lines) > limit else "")


def _shown(value: str) -> str:
    """A field as a message quotes it: at most 40 characters."""
    return repr(value) if len(value) <= 40 else f"{value[:30]!r}... ({len(value):,} characters)"


def _which(lines: list[int]) -> str:
    return f"row {lines[0]}" if len(lines) == 1 else f"rows {_rows(lines)}"


def check_delivery(folder: str, trials_folder: str | None) -> tuple[list[tuple[str, DeliveryResult]], list[str]]:
    """Findings per file of the delivery, and problems reading the trial files (for stderr)."""
    trials, trial_errors = load_trials(trials_folder) if trials_folder else ({}, [])
    scorer = Scorer(trials)
    delivery = read_delivery(folder, scorer.shown_examples)
    files: dict[str, _File] = {}

    def file_for(table: Table | None, name: str) -> _File:
        path = table.path if table is not None else os.path.join(folder, name)
        if path not in files:
            files[path] = _File(path, table.text if table is not None else "")
        return files[path]

    problems = sorted({p for p, _ in trials}) or list(range(1, 101))
    if delivery.predictions is None:
        msg = "predictions.csv is missing (the request's deliverable 1)"
        msg += "; sylla metrics derives each trial's prediction from bests.csv" if delivery.bests is not None else ""
        file_for(None, "predictions.csv").add("W910", msg)
    if delivery.bests is None:
        file_for(None, "bests.csv").add("W910", "bests.csv is missing (the request's deliverable 2)")
    for name, table in (("predictions.csv", delivery.predictions), ("bests.csv", delivery.bests), ("samples.csv", delivery.samples)):
        if table is None:
            continue
        f = file_for(table, name)
        for note in table.notes:
            if note.path and note.path != table.path:
                if note.path not in files:
                    files[note.path] = _File(note.path, table.texts.get(note.path, ""))
                files[note.path].add(_NOTE_CODE.get(note.kind, "W911"), note.message, note.line, note.column, note.severity)
                continue
            f.add(_NOTE_CODE.get(note.kind, "W911"), note.message, note.line, note.column, note.severity)
        for reason, lines in table.bad.items():
            f.add("W915", f"{len(lines)} row{'s' if len(lines) > 1 else ''} cannot be read ({reason}): {_which(lines)}", lines[0])
    if delivery.predictions is not None:
        if not delivery.predictions.untold:  # the W913 error says why; rows on a guessed numbering would be noise
            _completeness(delivery.predictions, file_for(delivery.predictions, "predictions.csv"), problems)
        _semantics(delivery.predictions, file_for(delivery.predictions, "predictions.csv"), scorer, _placed(delivery.predictions, trials))
    if delivery.bests is not None and delivery.predictions is None and delivery.bests.lines:
        runs = set(delivery.bests.data.get("run", []))
        if runs == {1}:
            file_for(delivery.bests, "bests.csv").add(
                "W914", f"bests.csv holds run 1 only; the request asks for {RUNS} runs", delivery.bests.lines[0])
    if delivery.bests is not None:
        _semantics(delivery.bests, file_for(delivery.bests, "bests.csv"), scorer, _placed(delivery.bests, trials))
        _bests_order(delivery.bests, file_for(delivery.bests, "bests.csv"))
    if delivery.samples is not None and len(delivery.samples.texts) <= 1:  # not split: every row is of one file
        _semantics(delivery.samples, file_for(delivery.samples, "samples.csv"), scorer, _placed(delivery.samples, trials))
    if delivery.samples is None:
        file_for(None, "samples.csv").add("W910", "samples.csv is missing (the request's deliverable 3)")
    elif len(delivery.samples) != SAMPLES:
        where = delivery.samples
        file_for(where, "samples.csv").add("W922", f"{len(where):,} sample rows; the request asks for {SAMPLES:,} programs "
                                          "uniformly sampled from all programs considered")
    _description(delivery, file_for)
    out = [(path, DeliveryResult(sorted(f.findings, key=lambda x: (x.span.start, x.code)), DeliveryParse(f), None, path, "trials"))
           for path, f in sorted(files.items())]
    return out, trial_errors


def _placed(table: Table, trials: dict) -> bool:
    """Whether the rows can be checked against the trial files: there are some, and the file's
    ordering and trial numbering could be told."""
    return bool(trials) and "order" not in table.untold and "trial" not in table.untold


def _key_columns(table: Table) -> list[tuple[int | None, int, int, int]]:
    probs = [_problem(p) for p in table.data["problem"]]
    return list(zip(probs, table.data["run"], table.data["order"], table.data["trial"]))


_LABEL = re.compile(r"^\s*c([0-9]{3})\s*$")


def _problem(label: str) -> int | None:
    m = _LABEL.match(label)
    return int(m.group(1)) if m else None


def _completeness(table: Table, f: _File, problems: list[int]) -> None:
    if not table.lines or not all(table.has(c) for c in ("problem", "run", "order", "trial")):
        return
    keys = _key_columns(table)
    runs = sorted({k[1] for k in keys})
    expected_runs = list(range(1, RUNS + 1))
    if runs == [1]:
        f.add("W914", f"{os.path.basename(table.path)} holds run 1 only; the request asks for {RUNS} runs. "
              "Completeness is checked for run 1.", table.lines[0])
        expected_runs = [1]
    expected = {(p, r, o, t) for p in problems for r in expected_runs for o in range(1, ORDERINGS + 1) for t in range(1, TRIALS + 1)}
    seen: dict[tuple, int] = {}
    dup: list[int] = []
    extra: list[int] = []
    for key, line in zip(keys, table.lines):
        if key[0] is None:
            continue  # _semantics names it
        if key in seen:
            dup.append(line)
        else:
            seen[key] = line
            if key not in expected:
                extra.append(line)
    missing = sorted(expected - seen.keys())
    if missing:
        ex = ", ".join(f"(c{p:03d}, run {r}, order {o}, trial {t})" for p, r, o, t in missing[:3])
        f.add("W914", f"{len(missing):,} of the {len(expected):,} expected (problem, run, order, trial) rows are missing, "
              f"e.g. {ex}", table.lines[0])
    if dup:
        f.add("W914", f"{len(dup)} rows repeat a (problem, run, order, trial) already given: rows {_rows(dup)}", dup[0])
    if extra:
        f.add("W914", f"{len(extra)} rows are outside the protocol (a problem without trial files, a run, order or "
              f"trial out of range): rows {_rows(extra)}", extra[0])


def _close(given: float, want: float) -> bool:
    return abs(given - want) <= ABS_TOL + REL_TOL * abs(want)


_SPACE = re.compile(r"\s+")


def _norm(s: str) -> str:
    return _SPACE.sub("", s) if (" " in s or "\t" in s) else s


def _semantics(table: Table, f: _File, scorer: Scorer, have_trials: bool) -> None:
    """Per-row checks, reported as one finding per check."""
    if not table.lines or not table.has("program"):
        return
    full = all(table.has(c) for c in ("input", "correct", "predicted", "accuracy"))
    fails: dict[str, list[int]] = defaultdict(list)
    first_detail: dict[str, str] = {}
    d = table.data
    progs, lines = d["program"], table.lines
    get = lambda c: d.get(c) or [None] * len(lines)
    labels = d.get("problem")
    probs: list[int | None] = [_problem(p) for p in labels] if labels is not None else [None] * len(lines)
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
            fail("bad label", line, f"row {line}: problem {_shown(labels[k])}")
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
            pred_norm = _norm(preds[k])
            want_acc = int(pred_norm == _norm(corrects[k]))
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
            if _norm(inputs[k]) != test_in or _norm(corrects[k]) != test_out:
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
    codes = {"bad label": "W915", "unparseable program": "W915", "ill-typed program": "W915", "evaluation error": "W915", "no prior": "W915",
             "accuracy": "W917", "test example": "W916", "predicted": "W918", "nll": "W919", "nlp": "W920"}
    what = {
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
    for kind, ls in fails.items():
        note = " (these predicted nothing and count as wrong)" if kind == "evaluation error" else ""
        verb = what[kind] if len(ls) > 1 else what[kind].replace("do not have", "does not have").replace("have", "has", 1)
        column = _program_column(table, f, ls[0], first_at[kind]) if kind in first_at else 1
        f.add(codes[kind], f"{base}: {len(ls):,} row{'s' if len(ls) > 1 else ''} {verb}{note} ({_which(ls)}); "
              f"first: {first_detail[kind]}", ls[0], column, severity="info" if kind == "evaluation error" else None)


def _program_column(table: Table, f: _File, line: int, at: int) -> int:
    """The 1-based column in the file of offset ``at`` of the (stripped) program in row ``line``,
    so that a finding about a program stands where the program goes wrong (1 when it cannot be told)."""
    if "program" not in table.columns or table.work is None or f.text is not table.text:
        return 1
    start = f.index.offset(line, 1)
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


def _bests_order(table: Table, f: _File) -> None:
    if not table.lines or not all(table.has(c) for c in ("cpu", "count")):
        return
    d = table.data
    keys = list(zip(d["problem"], d["run"], d["order"], d["trial"]))
    cpu, count, lines = d["cpu"], d["count"], table.lines
    post = [a + b for a, b in zip(d["nlp"], d["nll"])] if table.has("nlp") and table.has("nll") else None
    bad_count, bad_cpu, bad_post = [], [], []
    for k in range(1, len(lines)):
        if keys[k] != keys[k - 1]:
            continue
        if count[k] <= count[k - 1]:
            bad_count.append(lines[k])
        if cpu[k] < cpu[k - 1]:
            bad_cpu.append(lines[k])
        if post is not None and not post[k] < post[k - 1] - 1e-12:
            bad_post.append(lines[k])
    base = os.path.basename(table.path)
    if bad_count:
        f.add("W921", f"{base}: {len(bad_count)} best-so-far rows do not increase count within their trial (rows {_rows(bad_count)})", bad_count[0])
    if bad_cpu:
        f.add("W921", f"{base}: {len(bad_cpu)} best-so-far rows go back in cpu time within their trial (rows {_rows(bad_cpu)})", bad_cpu[0])
    if bad_post:
        f.add("W921", f"{base}: {len(bad_post)} best-so-far rows do not improve nlp + nll on the row before "
              f"(rows {_rows(bad_post)}); a best-so-far program scores better than all before it "
              "(if the model ranks by another objective, say so in description.md)", bad_post[0], severity="warning")


def _description(delivery: Delivery, file_for: Callable[[Table | None, str], _File]) -> None:
    if delivery.description is None:
        file_for(None, "description.md").add("W923", "description.md is missing (the request's deliverable 4)")
        return
    paras = paragraphs(delivery.description)
    path = os.path.join(delivery.folder, "description.md")
    f = file_for(None, "description.md")
    f.text = delivery.description
    f.index = LineIndex(delivery.description)
    if len(paras) < 2:
        f.add("W923", f"description.md has {len(paras)} paragraph{'s' if len(paras) != 1 else ''}; the request asks for 2: "
              "how the model works, and the simulation-specific details", 1 if delivery.description else 0)
    elif len(paras) > 2:
        f.add("W923", f"description.md has {len(paras)} paragraphs; the request asks for 2 (how the model works; "
              "simulation-specific details)", 1, severity="info")
    del path
