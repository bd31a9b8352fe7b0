"""``explain``: the schedule of a syllabus as a table or as JSON.

The JSON form is a contract other tools rely on: keys are only ever added. Lines and columns
are 1-based, columns counted in characters (code points).
"""

from __future__ import annotations

import json
from typing import Any

from sylla.grammar.syllabus.model import Syllabus
from sylla.grammar.syllabus.schedule import Schedule, ScheduledBlock, schedule
from sylla.grammar.syllabus.syllabus_type import canonical, infer_type


def _learning(value: bool | None) -> str:
    return "on" if value else "off" if value is False else "unspecified"


def _overrides(model: Syllabus, params: Any) -> dict[str, Any]:
    """The parameters of a block that ``default_params`` does not already give it: what tells
    two blocks apart, so the table shows them and the defaults only once, in the header."""
    defaults = model.default_params
    return {k: v for k, v in params.items() if k not in defaults or canonical(defaults[k]) != canonical(v)}


def _block_json(model: Syllabus, sb: ScheduledBlock) -> dict[str, Any]:
    line, column = model.line_col(sb.block.span.start)
    return {
        "task": sb.block.task,
        "module": sb.block.module,
        "params": dict(sb.block.params),
        "overrides": _overrides(model, sb.block.params),
        "count": sb.count,
        "start": sb.start,
        "end": sb.end,
        "learning": sb.learning,
        "leaf": sb.block.leaf,
        "line": line,
        "column": column,
    }


def explain(model: Syllabus, workers: int = 1, worker: int = 0) -> dict[str, Any]:
    """The explain document (see the module docstring): the schedule of ``worker`` (0-based)
    of ``workers``; with several workers, ``workers`` also summarises every worker's lane."""
    if not 0 <= worker < workers:
        raise ValueError(f"worker must be in 0..{workers - 1}, got {worker}")
    plan = schedule(model, workers, worker)
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
        "default_params": dict(model.default_params),
        "worker": worker,
        "worker_count": workers,
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


#: the width of the params column before it is cut (with a count of what was cut)
PARAMS_WIDTH = 100


def _show(params: dict[str, Any]) -> list[str]:
    return [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in params.items()]


def _params(params: dict[str, Any], first: set[str], defaults: bool) -> str:
    """A block's parameters, the ones in ``first`` (those that vary between blocks) first."""
    if not params:
        return "(defaults)" if defaults else "-"
    ordered = sorted(params, key=lambda k: k not in first)  # stable: file order otherwise
    parts = _show({k: params[k] for k in ordered})
    text = ", ".join(parts)
    if len(text) <= PARAMS_WIDTH:
        return text
    kept: list[str] = []
    for part in parts:
        if len(", ".join(kept + [part])) > PARAMS_WIDTH - 12 and kept:
            break
        kept.append(part)
    return ", ".join(kept) + f", … (+{len(parts) - len(kept)} more)"


def _varying(doc: dict[str, Any]) -> set[str]:
    """Parameters whose value differs between the blocks of the schedule."""
    seen: dict[str, set[str]] = {}
    blocks = doc["unphased_blocks"] + [b for p in doc["phases"] for b in p["blocks"]]
    for b in blocks:
        for k, v in b["overrides"].items():
            seen.setdefault(k, set()).add(canonical(v))
    return {k for k, values in seen.items() if len(values) > 1 or sum(k in b["overrides"] for b in blocks) < len(blocks)}


def _table(rows: list[list[str]], header: list[str]) -> list[str]:
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    right = {i for i, h in enumerate(header) if h in ("count", "episodes")}

    def fmt(row: list[str]) -> str:
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(row)]
        return "  ".join(cells).rstrip()

    return [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def render_text(doc: dict[str, Any]) -> str:
    rows: list[list[str]] = []
    first = _varying(doc)

    def add(phase: str, kind: str, b: dict[str, Any]) -> None:
        rows.append(
            [phase, kind, b["task"], _params(b["overrides"], first, bool(doc["default_params"])), str(b["count"]), f"[{b['start']}, {b['end']})", _learning(b["learning"])]
        )

    for b in doc["unphased_blocks"]:
        add("(none)", "-", b)
    for p in doc["phases"]:
        if not p["blocks"]:
            rows.append([p["label"], p["kind"] or "?", "(no blocks)", "", "0", "", ""])
        for b in p["blocks"]:
            add(p["label"], p["kind"] or "?", b)
    out = [f"{doc['path'] or '<stdin>'}: {doc['type']} ({doc['type_reason']})"]
    if doc["default_params"]:
        out.append("default_params (every block has these unless its params say otherwise): " + ", ".join(_show(doc["default_params"])))
    if doc["worker_count"] > 1:
        out.append(
            f"schedule of worker {doc['worker']} of workers 0..{doc['worker_count'] - 1} (--worker I shows another)"
        )
    out.append("")
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
        shown = "  (shown above)" if lane["worker"] == doc["worker"] else ""
        out.append(f"worker {lane['worker']}: {lane['episodes']} episodes{shown}")
    shown = f" (worker {doc['worker']})" if doc["worker_count"] > 1 else ""
    out.append(f"total: {doc['episodes']} episodes{shown}")
    return "\n".join(out)
