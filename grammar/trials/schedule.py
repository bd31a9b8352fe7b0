"""The protocol a folder of trial files implies (wave3-online-trials-request.md, *Task*):
per (problem, ordering, run), 11 trials; trial N trains on examples 1..N-1 of the ordering and
tests on example N; 10 minutes of search per trial, so 110 minutes per (problem, ordering, run)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .detect import is_trial_file
from .model import MINUTES_PER_TRIAL, RUNS, TRIALS, IntList, LongInt, TrialFile, group_of, name_parts
from .parse import parse


@dataclass(frozen=True)
class Ordering:
    problem: int
    order: int
    path: str
    model: TrialFile


def load_folder(folder: str) -> tuple[list[Ordering], list[str]]:
    """The trial files of ``folder`` (by name ``cPPP_K.json`` and by content), sorted, and the
    problems reading them (``path:line:col: message``)."""
    out: list[Ordering] = []
    errors: list[str] = []
    for name in sorted(os.listdir(folder)):
        parts = name_parts(name)
        full = os.path.join(folder, name)
        if parts is None or not os.path.isfile(full):
            continue
        with open(full, "rb") as fh:
            data = fh.read()
        if not is_trial_file(data):
            continue
        result = parse(data, full)
        for d in result.diagnostics:
            line, col = result.lines.line_col(d.span.start)
            errors.append(f"{full}:{line}:{col}: {d.message}")
        if result.model is not None:
            out.append(Ordering(parts[0], parts[1], full, result.model))
    return out, errors


def schedule(orderings: list[Ordering], runs: int = RUNS) -> dict:
    """The explain document: totals, budget, and per (problem, ordering, run) the trials."""
    items: list[dict] = []
    for o in orderings:
        trials = []
        for n, ex in enumerate(o.model.data[:TRIALS], 1):
            trials.append({"trial": n, "train": list(range(1, n)), "test": n,
                           "input": _shown(ex.i), "output": _shown(ex.o)})
        for run in range(1, runs + 1):
            items.append({"problem": f"c{o.problem:03d}", "group": group_of(o.problem), "order": o.order, "run": run,
                          "file": os.path.basename(o.path), "trials": trials, "minutes": MINUTES_PER_TRIAL * len(trials)})
    n_trials = sum(len(i["trials"]) for i in items)
    problems = sorted({o.problem for o in orderings})
    return {
        "kind": "wave3-trials",
        "problems": len(problems),
        "groups": {g: sum(1 for p in problems if group_of(p) == g) for g in ("P1.1", "P1.2", "P1.3", "P1.4", "P2")},
        "orderings": len(orderings),
        "runs": runs,
        "trials": n_trials,
        "minutes_per_trial": MINUTES_PER_TRIAL,
        "minutes_per_problem_ordering_run": MINUTES_PER_TRIAL * TRIALS,
        "cpu_hours": round(n_trials * MINUTES_PER_TRIAL / 60, 1),
        "schedule": items,
    }


def _shown(values: IntList | None) -> list[int | str | None] | None:
    """A list of an example for the document: an integer too long to read is said as such."""
    return None if values is None else [str(v) if isinstance(v, LongInt) else v for v in values.values]


def render_text(doc: dict) -> str:
    lines = [
        f"wave-3 online trials: {doc['problems']} problems × their orderings ({doc['orderings']} files) × "
        f"{doc['runs']} runs × {TRIALS} trials = {doc['trials']:,} trials",
        "groups: " + ", ".join(f"{g} {n}" for g, n in doc["groups"].items() if n),
        f"search budget: {doc['minutes_per_trial']} min per trial, {doc['minutes_per_problem_ordering_run']} min per "
        f"(problem, ordering, run); {doc['trials'] * doc['minutes_per_trial']:,} min ≈ {doc['cpu_hours']:,} CPU-hours in all",
        "",
    ]
    seen: set[tuple[str, int]] = set()
    for item in doc["schedule"]:
        key = (item["problem"], item["order"])
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"{item['problem']} ({item['group']}) ordering {item['order']} [{item['file']}], runs 1-{doc['runs']} "
                     f"(each {item['minutes']} min):")
        for t in item["trials"]:
            train = "none" if not t["train"] else (f"1..{t['train'][-1]}" if len(t["train"]) > 1 else "1")
            lines.append(f"  trial {t['trial']:>2}: train on examples {train:<6} test on example {t['test']:>2}: "
                         f"{t['input']} -> {t['output']}")
    return "\n".join(lines)
