"""The sweep's stdout: a text table or a JSON document, built from the summary frames only, so
it is the same whether the runs were computed now or read from the cache (how many came from
where goes to stderr)."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pandas as pd

from .aggregate import CELL, STATS

ORDER = ["metric", "task", "phase"]


def _num(value: Any) -> float | None:
    if value is None or value is pd.NA or math.isnan(float(value)):
        return None
    return float(value)


def _plain(value: Any) -> Any:
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def sorted_frame(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    if frame.empty:
        return frame
    by = ORDER + [k for k in keys if k not in ORDER]
    return frame.sort_values(by, key=lambda s: s.map(lambda v: "" if _plain(v) is None else str(v)),
                             kind="stable", ignore_index=True)


def records(frame: pd.DataFrame, keys: list[str]) -> list[dict[str, Any]]:
    out = []
    for rec in sorted_frame(frame, keys).to_dict("records"):
        item: dict[str, Any] = {}
        for k in keys + CELL:
            item[k] = _plain(rec.get(k))
        item["n"] = int(rec["n"])
        for s in STATS[1:]:
            item[s] = _num(rec[s])
        out.append(item)
    return out


def render_json(result: Any) -> str:
    doc: dict[str, Any] = {
        "groups": result.groups,
        "runs": int(result.rows["run"].nunique()) if not result.rows.empty else 0,
        "summary": records(result.summary, result.groups),
    }
    if result.compare_key is not None:
        strata = [g for g in result.compare.columns if g not in ["a", "b"] + CELL + STATS]
        doc["compare"] = {"key": result.compare_key,
                          "pairs": records(result.compare, strata + ["a", "b"])}
    doc["failures"] = result.failures.to_dict("records")
    doc["notes"] = list(result.notes)
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _fmt(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    v = float(value)
    return f"{v:.0f}" if v.is_integer() and abs(v) < 1e12 else f"{v:.4g}"


def _table(title: str, frame: pd.DataFrame, keys: list[str]) -> Any:
    from rich.table import Table  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    table = Table(title=title, title_justify="left")
    show_phase = frame["phase"].notna().any() if "phase" in frame else False
    cols = ORDER[:2] + (["phase"] if show_phase else []) + keys
    for c in cols:
        table.add_column(c)
    for c in ("n", "mean", "median", "std"):
        table.add_column(c, justify="right")
    table.add_column("95% CI", justify="right")
    for rec in sorted_frame(frame, keys).to_dict("records"):
        cells = ["—" if _plain(rec.get(c)) is None else str(rec[c]) for c in cols]
        ci = ("—" if _plain(rec["ci_low"]) is None
              else f"[{_fmt(rec['ci_low'])}, {_fmt(rec['ci_high'])}]")
        table.add_row(*cells, str(int(rec["n"])), _fmt(rec["mean"]), _fmt(rec["median"]),
                      _fmt(rec["std"]), ci)
    return table


def render_text(result: Any, width: int = 160) -> str:
    from rich.console import Console  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, color_system=None)
    runs = int(result.rows["run"].nunique()) if not result.rows.empty else 0
    console.print(f"{runs} run(s); groups by {', '.join(result.groups) or '(all runs together)'}",
                  highlight=False, markup=False)
    if not result.summary.empty:
        console.print(_table("Across runs (lifetime rows have no task)", result.summary,
                             result.groups))
    if result.compare_key is not None and not result.compare.empty:
        strata = [g for g in result.compare.columns if g not in ["a", "b"] + CELL + STATS]
        console.print(_table(f"Paired differences a - b between values of {result.compare_key}",
                             result.compare, strata + ["a", "b"]))
    for note in result.notes:
        console.print(f"note: {note}", highlight=False, markup=False)
    for rec in result.failures.to_dict("records"):
        console.print(f"failed: {rec['path']}: {rec['error']}", highlight=False, markup=False)
    return buffer.getvalue()
