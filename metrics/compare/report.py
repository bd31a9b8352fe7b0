"""``sylla compare``'s outputs: text, JSON and CSV renderings of the same comparisons.

Each rendering states what a reader needs to reproduce the numbers (issue 26): the runs per
group and task, the reps, the seed and the interval method, and it lists the missing values.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from typing import Any

from .analyze import Comparison


@dataclass
class Settings:
    """The options every number depends on, printed with them."""

    source: str
    reps: int
    seed: int
    confidence: float
    normalize: str
    gamma: float
    bca: bool

    @property
    def method(self) -> str:
        text = ("stratified bootstrap (runs resampled within each task), "
                f"{self.confidence:.0%} percentile intervals")
        return text + "; BCa intervals by scipy.stats.bootstrap" if self.bca else text


def _num(v: float | None) -> float | None:
    return None if v is None or math.isnan(v) else v


def _fmt(v: float | None) -> str:
    return "—" if v is None or math.isnan(v) else f"{v:.4g}"


def _runs_line(c: Comparison) -> list[str]:
    lines = []
    for group, per_task in c.runs.items():
        counts = sorted(set(per_task.values()))
        if len(counts) == 1:
            lines.append(f"  {group}: {counts[0]} run(s) on each of {len(per_task)} task(s)")
        else:
            lines.append(f"  {group}: " + ", ".join(f"{t} {n}" for t, n in per_task.items()))
    return lines


def render_text(comparisons: list[Comparison], s: Settings) -> str:
    out = [f"sylla compare {s.source}: {s.reps} reps, seed {s.seed}, normalize {s.normalize}, "
           f"optimality-gap target {s.gamma:g}",
           f"intervals: {s.method}"]
    for c in comparisons:
        out += ["", f"## {c.metric} ({len(c.tasks)} task(s): {', '.join(c.tasks)})", "runs:"]
        out += _runs_line(c)
        width = max([len(e.group) for e in c.estimates] + [5])
        head = f"  {'group':<{width}}  {'stat':<14} {'point':>10}  {'95% CI':>23}"
        out += ["aggregates:", head + ("  BCa" if s.bca else "")]
        for e in c.estimates:
            line = (f"  {e.group:<{width}}  {e.stat:<14} {_fmt(e.point):>10}  "
                    f"{'[' + _fmt(e.low) + ', ' + _fmt(e.high) + ']':>23}")
            if s.bca:
                line += f"  [{_fmt(e.bca_low)}, {_fmt(e.bca_high)}]"
            out.append(line)
        if c.improvements:
            out.append("probability of improvement P(x > y):")
            for i in c.improvements:
                out.append(f"  {i.x} > {i.y}: {_fmt(i.point)} [{_fmt(i.low)}, {_fmt(i.high)}]")
        if c.dropped_tasks:
            out.append(f"dropped task(s), no value in some group: {', '.join(c.dropped_tasks)}")
        if c.missing:
            out.append(f"missing values: {len(c.missing)} (left out of the scores)")
            out += [f"  {m.group} {m.run} {m.task}: {m.reason}" for m in c.missing]
        else:
            out.append("missing values: 0")
    return "\n".join(out) + "\n"


def to_document(comparisons: list[Comparison], s: Settings) -> dict[str, Any]:
    return {
        "source": s.source, "reps": s.reps, "seed": s.seed, "confidence": s.confidence,
        "ci_method": s.method, "normalize": s.normalize, "gamma": s.gamma,
        "metrics": [{
            "metric": c.metric, "tasks": c.tasks, "runs": c.runs,
            "aggregates": [{"group": e.group, "stat": e.stat, "point": _num(e.point),
                            "ci_low": _num(e.low), "ci_high": _num(e.high),
                            **({"bca_low": _num(e.bca_low), "bca_high": _num(e.bca_high)}
                               if s.bca else {})} for e in c.estimates],
            "probability_of_improvement": [{"x": i.x, "y": i.y, "point": _num(i.point),
                                            "ci_low": _num(i.low), "ci_high": _num(i.high)}
                                           for i in c.improvements],
            "missing": [{"group": m.group, "run": m.run, "task": m.task, "reason": m.reason}
                        for m in c.missing],
            "dropped_tasks": c.dropped_tasks,
        } for c in comparisons],
    }


def render_json(comparisons: list[Comparison], s: Settings) -> str:
    return json.dumps(to_document(comparisons, s), indent=2, allow_nan=False) + "\n"


CSV_COLUMNS = ["metric", "kind", "group", "versus", "stat", "point", "ci_low", "ci_high",
               "bca_low", "bca_high", "runs", "reps", "seed", "ci_method", "normalize"]


def render_csv(comparisons: list[Comparison], s: Settings) -> str:
    """One row per estimate; the settings repeat on every row so that a row stands alone."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    tail = [s.reps, s.seed, s.method, s.normalize]

    def cell(v: float | None) -> str:
        return "" if v is None or math.isnan(v) else repr(float(v))

    for c in comparisons:
        for e in c.estimates:
            runs = " ".join(f"{t}={n}" for t, n in c.runs[e.group].items())
            w.writerow([c.metric, "aggregate", e.group, "", e.stat, cell(e.point), cell(e.low),
                        cell(e.high), cell(e.bca_low), cell(e.bca_high), runs, *tail])
        for i in c.improvements:
            w.writerow([c.metric, "improvement", i.x, i.y, "P(x>y)", cell(i.point), cell(i.low),
                        cell(i.high), "", "", "", *tail])
        for m in c.missing:
            w.writerow([c.metric, "missing", m.group, "", m.reason, "", "", "", "", "",
                        f"{m.run} {m.task}", *tail])
    return buf.getvalue()
