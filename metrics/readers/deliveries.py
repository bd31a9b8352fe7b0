"""A wave-3 delivery folder as the learning-curve module reads it: one row per trial with its
accuracy, from predictions.csv, or derived from bests.csv when predictions.csv is missing, and
the best-so-far rows with the correctness of each program on its trial's test example.

The text is read by ``sylla.grammar.trials.delivery`` (the same reader ``sylla lint --trials``
uses, so both tools accept and report the same deviant shapes); programs are run by the DSL
evaluator. Rows whose program cannot be used are set aside with their row numbers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sylla.grammar.listdsl import DslError
from sylla.grammar.trials.delivery import Delivery, Table, read_delivery
from sylla.grammar.trials.model import group_of
from sylla.grammar.trials.scoring import Scorer, load_trials

from ..errors import EXIT_FINDINGS, EXIT_USAGE, MetricsError


@dataclass
class TrialsData:
    """``predictions``: problem, group, run, order, trial, accuracy (one row per trial);
    ``bests``: problem, group, run, order, trial, cpu, correct (one row per best-so-far program);
    ``derived``: whether predictions came from bests.csv; ``bad``: file -> reason -> row numbers;
    ``notes``: deviations of shape, said once each."""

    predictions: pd.DataFrame
    bests: pd.DataFrame | None
    derived: bool
    bad: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _problem(label: str) -> int | None:
    label = label.strip()
    return int(label[1:]) if len(label) == 4 and label[0] == "c" and label[1:].isdigit() else None


def _score_rows(table: Table, scorer: Scorer, bad: dict[str, list[int]], have_trials: bool) -> tuple[list[int], list[int]]:
    """Indices of the usable rows and, for each, whether its program is right on the test
    example (with trial files), else -1. Work is done once per (problem, program, order)."""
    d = table.data
    keep: list[int] = []
    correct: list[int] = []
    memo: dict[tuple[str, str, int], tuple] = {}
    trials = d["trial"]
    for k, key in enumerate(zip(d["problem"], d["program"], d["order"])):
        r = memo.get(key)
        if r is None:
            r = memo[key] = _resolve(key, scorer, have_trials)
        line = table.lines[k]
        if r[0] is not None:
            bad.setdefault(r[0], []).append(line)
            continue
        if not have_trials:
            keep.append(k)
            correct.append(-1)
            continue
        right, failed = r[1], r[2]
        t = trials[k]
        if not 1 <= t <= len(right):
            bad.setdefault("trial outside its ordering's examples", []).append(line)
            continue
        keep.append(k)
        if failed[t - 1]:
            bad.setdefault("evaluation error (counted as wrong)", []).append(line)
        correct.append(right[t - 1])
    return keep, correct


def _resolve(key: tuple[str, str, int], scorer: Scorer, have_trials: bool) -> tuple:
    """(reason the rows are bad or None, right per example, failed per example)."""
    label, text, order = key
    p = _problem(label)
    if p is None:
        return ("problem is not a c??? label", (), ())
    expr = scorer.program(text, p)
    if isinstance(expr, DslError):
        return ("ill-typed program" if expr.kind == "type" else "unparseable program", (), ())
    if not have_trials:
        return (None, (), ())
    out = scorer.outputs(text, p, order)
    if out is None or isinstance(out, DslError):
        return ("no trial file for its problem and order", (), ())
    wanted = scorer.shown_examples[(p, order)]
    right = tuple(int(shown == w[1]) for shown, w in zip(out.shown, wanted))
    return (None, right, tuple(e is not None for e in out.errors))


def read_trials(folder: str, trials_folder: str | None) -> TrialsData:
    if not os.path.isdir(folder):
        raise MetricsError("not a delivery folder", folder, exit_code=EXIT_USAGE)
    trials, errors = load_trials(trials_folder) if trials_folder else ({}, [])
    if errors:
        raise MetricsError("the trial files have errors (run sylla lint on them): " + "; ".join(errors[:3]), trials_folder, exit_code=EXIT_USAGE)
    scorer = Scorer(trials)
    delivery: Delivery = read_delivery(folder, scorer.shown_examples)
    notes: list[str] = []
    bad: dict[str, dict[str, list[int]]] = {}
    for t in (delivery.predictions, delivery.bests):
        if t is None:
            continue
        untold = [t.untold[c] for c in ("order", "trial") if c in t.untold]  # a run's number moves no curve: a note below
        if untold:
            raise MetricsError(f"{untold[0].message} Nothing is computed: a curve on a guessed numbering would move every row.",
                               t.path, untold[0].line, exit_code=EXIT_FINDINGS)
        notes.extend(f"{os.path.basename(n.path or t.path)}: {n.message}" for n in t.notes if n.severity != "info" or "length" in n.message)
        for reason, lines in t.bad.items():
            bad.setdefault(os.path.basename(t.path), {})[reason] = list(lines)
    bests_df = None
    if delivery.bests is not None and delivery.bests.lines and delivery.bests.has("cpu"):
        b = delivery.bests
        rows_bad = bad.setdefault("bests.csv", {})
        keep, correct = _score_rows(b, scorer, rows_bad, bool(trials))
        idx = np.asarray(keep, dtype=np.int64)
        labels: dict[str, int] = {x: _problem(x) or 0 for x in set(b.data["problem"])}
        probs = np.asarray([labels[x] for x in b.data["problem"]], dtype=np.int64)[idx] if keep else np.zeros(0, np.int64)
        bests_df = pd.DataFrame({
            "problem": probs,
            "run": np.asarray(b.data["run"], dtype=np.int64)[idx] if keep else [],
            "order": np.asarray(b.data["order"], dtype=np.int64)[idx] if keep else [],
            "trial": np.asarray(b.data["trial"], dtype=np.int64)[idx] if keep else [],
            "cpu": np.asarray(b.data["cpu"], dtype=float)[idx] if keep else [],
            "correct": np.asarray(correct, dtype=np.int64),
            "seq": idx,
        })
        bests_df["group"] = bests_df["problem"].map(group_of)
    if delivery.predictions is not None and delivery.predictions.lines:
        t = delivery.predictions
        if not t.has("accuracy"):
            raise MetricsError("predictions.csv has no accuracy column", t.path, exit_code=EXIT_USAGE)
        rows_bad = bad.setdefault("predictions.csv", {})
        keep, correct = _score_rows(t, scorer, rows_bad, bool(trials))
        written = t.data["accuracy"]  # any other value is "not 0 or 1" below, and may not fit an int64
        acc = np.asarray([2 if written[k] not in (0, 1) else written[k] for k in keep], dtype=np.int64)
        if trials:  # a program that fails on its input predicted nothing: wrong, whatever was written
            failed = set(rows_bad.get("evaluation error (counted as wrong)", []))
            lines = [t.lines[k] for k in keep]
            acc = np.asarray([0 if ln in failed else a for ln, a in zip(lines, acc)], dtype=np.int64)
        odd = [t.lines[k] for k, a in zip(keep, acc) if a not in (0, 1)]
        if odd:
            rows_bad["accuracy is not 0 or 1"] = odd
        ok = [i for i, a in enumerate(acc) if a in (0, 1)]
        sel = [keep[i] for i in ok]
        plabels: dict[str, int | None] = {x: _problem(x) for x in set(t.data["problem"])}
        preds = pd.DataFrame({
            "problem": [plabels[t.data["problem"][k]] for k in sel],
            "run": [t.data["run"][k] for k in sel], "order": [t.data["order"][k] for k in sel],
            "trial": [t.data["trial"][k] for k in sel], "accuracy": acc[ok] if len(ok) else [],
        })
        derived = False
    elif bests_df is not None:
        if not trials:
            raise MetricsError("predictions.csv is missing; deriving predictions from bests.csv needs the trial files "
                               "(--trials json/)", folder, exit_code=EXIT_USAGE)
        last = bests_df.sort_values("seq").groupby(["problem", "run", "order", "trial"], sort=True).tail(1)
        preds = last[["problem", "run", "order", "trial"]].copy()
        preds["accuracy"] = last["correct"].to_numpy()
        derived = True
        notes.append("predictions.csv is missing: each trial's prediction is its last best-so-far program in bests.csv "
                     "run on the trial's test input (a program that fails there predicted nothing: wrong)")
    else:
        raise MetricsError("neither predictions.csv nor bests.csv with a cpu column", folder, exit_code=EXIT_USAGE)
    preds = preds.reset_index(drop=True)
    preds["group"] = preds["problem"].map(group_of)
    bad = {f: r for f, r in bad.items() if r}
    return TrialsData(preds, bests_df, derived, bad, notes)
