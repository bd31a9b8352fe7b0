"""``explain``: the schedule of a syllabus as a table or as JSON.

The JSON form is a contract other tools rely on: keys are only ever added. Lines and columns
are 1-based, columns counted in characters (code points).
"""

from __future__ import annotations

import json
from typing import Any

from .model import Syllabus
from .schedule import Schedule, ScheduledBlock, schedule
from .syllabus_type import infer_type


def _learning(value: bool | None) -> str:
    return "on" if value else "off" if value is False else "unspecified"


def _block_json(model: Syllabus, sb: ScheduledBlock) -> dict[str, Any]:
    line, column = model.line_col(sb.block.span.start)
    return {
        "task": sb.block.task,
        "module": sb.block.module,
        "params": dict(sb.block.params),
        "count": sb.count,
        "start": sb.start,
        "end": sb.end,
        "learning": sb.learning,
        "leaf": sb.block.leaf,
        "line": line,
        "column": column,
    }


def explain(model: Syllabus, workers: int = 1) -> dict[str, Any]:
    """The explain document (see the module docstring) for worker 0 of ``workers``."""
    plan = schedule(model, workers, 0)
    inferred = infer_type(model)
    declared = model.declared_type
    doc: dict[str, Any] = {
        "path": model.path,
        "type": declared or inferred.type,
        "type_reason": f"declared in the file (structure suggests {inferred.type}: {inferred.reason})"
        if declared
        else inferred.reason,
        "inferred_type": inferred.type,
        "declared_type": declared,
        "episodes": plan.episodes,
        "phases": [
            {
                "label": run.phase.label,
                "number": run.phase.number,
                "kind": run.phase.kind,
                "line": model.line_col(run.phase.span.start)[0],
                "enable_updates": run.phase.enable_updates,
                "episodes": run.episodes,
                "blocks": [_block_json(model, b) for b in run.blocks],
            }
            for run in plan.phases
        ],
        "unphased_blocks": [_block_json(model, b) for b in plan.unphased],
        "totals": _totals(plan),
    }
    if workers > 1:
        doc["workers"] = [
            {
                "worker": w,
                "episodes": lane.episodes,
                "blocks": [{"count": b.count, "start": b.start, "end": b.end} for b in lane.blocks],
            }
            for w, lane in enumerate(schedule(model, workers, w) for w in range(workers))
        ]
    return doc


def _totals(plan: Schedule) -> dict[str, dict[str, int]]:
    tasks: dict[str, int] = {}
    phases: dict[str, int] = {}
    for b in plan.blocks:
        tasks[b.task] = tasks.get(b.task, 0) + b.count
    for run in plan.phases:
        phases[run.phase.label] = phases.get(run.phase.label, 0) + run.episodes
    return {"tasks": tasks, "phases": phases}


def _params(params: dict[str, Any]) -> str:
    if not params:
        return "-"
    text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in params.items())
    return text if len(text) <= 48 else text[:47] + "…"


def _table(rows: list[list[str]], header: list[str]) -> list[str]:
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    right = {i for i, h in enumerate(header) if h in ("count", "episodes")}

    def fmt(row: list[str]) -> str:
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(row)]
        return "  ".join(cells).rstrip()

    return [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def render_text(doc: dict[str, Any]) -> str:
    rows: list[list[str]] = []

    def add(phase: str, kind: str, b: dict[str, Any]) -> None:
        rows.append(
            [phase, kind, b["task"], _params(b["params"]), str(b["count"]), f"[{b['start']}, {b['end']})", _learning(b["learning"])]
        )

    for b in doc["unphased_blocks"]:
        add("(none)", "-", b)
    for p in doc["phases"]:
        if not p["blocks"]:
            rows.append([p["label"], p["kind"] or "?", "(no blocks)", "", "0", "", ""])
        for b in p["blocks"]:
            add(p["label"], p["kind"] or "?", b)
    out = [f"{doc['path'] or '<stdin>'}: {doc['type']} ({doc['type_reason']})", ""]
    if rows:
        out += _table(rows, ["phase", "kind", "task", "params", "count", "episodes", "learning"])
    else:
        out.append("no blocks")
    out.append("")
    totals = doc["totals"]
    if totals["tasks"]:
        out += _table([[t, str(n)] for t, n in totals["tasks"].items()], ["task", "episodes"])
        out.append("")
    if totals["phases"]:
        out += _table([[p, str(n)] for p, n in totals["phases"].items()], ["phase", "episodes"])
        out.append("")
    for lane in doc.get("workers", []):
        out.append(f"worker {lane['worker']}: {lane['episodes']} episodes")
    out.append(f"total: {doc['episodes']} episodes")
    return "\n".join(out)
