"""W914: predictions.csv does not hold every (problem, run, order, trial) exactly once."""

from __future__ import annotations

import os
from typing import Iterator

from sylla.grammar.core import Severity
from sylla.grammar.trials.delivery import Table
from sylla.grammar.trials.model import ORDERINGS, RUNS, TRIALS

from ..delivery_context import DeliveryContext
from ..finding import Finding
from ._delivery import DeliveryRule, problem, rows
from ._trials import trials_doc


class DeliveryCompleteness(DeliveryRule):
    code, name, severity = "W914", "delivery-completeness", Severity.ERROR
    __doc__ = trials_doc(
        "predictions.csv does not hold every (problem, run, order, trial) exactly once.",
        "100 problems × 5 runs × 5 orderings × 11 trials = 27,500 rows (the problems of the trial folder given with "
        "--trials), none missing, none repeated, none extra. A single run is said once and the rest checked for run 1.",
        "A missing row is a hole in a learning curve; a repeated one counts a trial twice.",
        "27,499 rows; (c046, run 2, order 3, trial 11) missing", "27,500 rows, one per (problem, run, order, trial)",
        "Re-run the missing trials; drop duplicates.", lang="text")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        preds, bests = ctx.model.delivery.predictions, ctx.model.delivery.bests
        if preds is not None and ctx.path == preds.path and not preds.untold:  # the W913 error says why; rows on a guessed numbering would be noise
            yield from self._complete(ctx, preds)
        if bests is not None and preds is None and bests.lines and ctx.path == bests.path and set(bests.data.get("run", [])) == {1}:
            yield ctx.at(self, f"bests.csv holds run 1 only; the request asks for {RUNS} runs", bests.lines[0])

    def _complete(self, ctx: DeliveryContext, table: Table) -> Iterator[Finding]:
        if not table.lines or not all(table.has(c) for c in ("problem", "run", "order", "trial")):
            return
        keys = list(zip([problem(p) for p in table.data["problem"]], table.data["run"], table.data["order"], table.data["trial"]))
        runs = sorted({k[1] for k in keys})
        expected_runs = list(range(1, RUNS + 1))
        if runs == [1]:
            yield ctx.at(self, f"{os.path.basename(table.path)} holds run 1 only; the request asks for {RUNS} runs. "
                         "Completeness is checked for run 1.", table.lines[0])
            expected_runs = [1]
        expected = {(p, r, o, t) for p in ctx.model.problems for r in expected_runs
                    for o in range(1, ORDERINGS + 1) for t in range(1, TRIALS + 1)}
        seen: dict[tuple, int] = {}
        dup: list[int] = []
        extra: list[int] = []
        for key, line in zip(keys, table.lines):
            if key[0] is None:
                continue  # W915 names it
            if key in seen:
                dup.append(line)
            else:
                seen[key] = line
                if key not in expected:
                    extra.append(line)
        missing = sorted(expected - seen.keys())
        if missing:
            ex = ", ".join(f"(c{p:03d}, run {r}, order {o}, trial {t})" for p, r, o, t in missing[:3])
            yield ctx.at(self, f"{len(missing):,} of the {len(expected):,} expected (problem, run, order, trial) rows are "
                         f"missing, e.g. {ex}", table.lines[0])
        if dup:
            yield ctx.at(self, f"{len(dup)} rows repeat a (problem, run, order, trial) already given: rows {rows(dup)}", dup[0])
        if extra:
            yield ctx.at(self, f"{len(extra)} rows are outside the protocol (a problem without trial files, a run, order or "
                         f"trial out of range): rows {rows(extra)}", extra[0])
