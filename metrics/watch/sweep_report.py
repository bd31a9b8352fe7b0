"""``sylla report SWEEP_OUT``: a sweep's ``--out`` folder as one self-contained HTML file.

Why from the folder and not from the runs: the folder is what a sweep leaves behind (the runs
may be on a cluster's scratch disk by then), and it holds all a reader needs: the tidy rows
(``rows/part-*.parquet``) and the summary document (``summary.json``, exactly the sweep's
``--format json`` stdout). Nothing is recomputed but the block curves' intervals, with the
summaries' own bootstrap (`sylla.metrics.sweep.aggregate.describe`: BCa, fixed seed), so the
bands and the table agree on method.

Curves per group: each block's mean performance (l2metrics' ``avg_train_perf`` for a train
block, ``avg_eval_perf`` for a test block, both per-block rows of every sweep), averaged over
the group's runs (the replicate key, ``seed`` by default, is what varies inside a group).
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from sylla.metrics.errors import EXIT_USAGE, MetricsError
from sylla.metrics.sweep import ROWS_DIR
from sylla.metrics.sweep.aggregate import describe

from .page import asset, inline_libraries

#: sweep.py's marker file of a finished rows dataset
MARK = "_sweep.json"
#: the per-block metrics the curves draw, and the kind of block each one belongs to
BLOCK_METRICS = {"avg_train_perf": "train", "avg_eval_perf": "test"}


def is_sweep_out(path: Path) -> bool:
    return (path / ROWS_DIR / MARK).is_file()


def _plain(value: Any) -> Any:
    """A cell as JSON: None for missing values (NaN, NA), Python numbers."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


def _label(record: dict[str, Any], keys: list[str]) -> str:
    return " · ".join(f"{k}={record[k]}" for k in keys) or "all runs"


def block_curves(rows: pd.DataFrame, groups: list[str]) -> list[dict[str, Any]]:
    """One point per group, task and block: n, mean and the 95 % interval of the block's mean
    performance over the group's runs (partial blocks left out, as in the summaries)."""
    sel = rows["block"].notna() & rows["metric"].isin(list(BLOCK_METRICS))
    if "partial" in rows.columns:
        sel &= ~rows["partial"].fillna(False).astype(bool)
    part = rows[sel]
    if part.empty:
        return []
    keys = [g for g in groups if g in part.columns]
    table = describe(part, keys + ["task", "block", "phase", "metric"])
    # group keys with one value throughout say nothing in a legend
    varying = [k for k in keys if table[k].astype(str).nunique() > 1]
    out = []
    for rec in table.to_dict("records"):
        out.append({
            "group": _label(rec, varying), "task": str(rec["task"]), "block": int(rec["block"]),
            "phase": _plain(rec["phase"]), "kind": BLOCK_METRICS[str(rec["metric"])],
            "n": int(rec["n"]), "mean": _plain(rec["mean"]),
            "ci_low": _plain(rec["ci_low"]), "ci_high": _plain(rec["ci_high"]),
        })
    out.sort(key=lambda r: (r["task"], r["group"], r["block"]))
    return out


def _number(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def summary_table(summary: list[dict[str, Any]], groups: list[str]) -> str:
    """The summary document as an HTML table (escaped: group values are folder names)."""
    stats = ["n", "mean", "median", "std", "ci_low", "ci_high"]
    keys = [*groups, "metric", "task", "phase"]
    head = "".join(f'<th class="key">{html.escape(k)}</th>' for k in keys)
    head += "".join(f"<th>{s}</th>" for s in stats)
    body = []
    for rec in summary:
        cells = "".join(f'<td class="key">{html.escape(_number(rec.get(k)))}</td>' for k in keys)
        cells += "".join(f"<td>{html.escape(_number(rec.get(s)))}</td>" for s in stats)
        body.append(f"<tr>{cells}</tr>")
    return (f'<table id="summary"><thead><tr>{head}</tr></thead><tbody>' + "".join(body)
            + "</tbody></table>")


def sweep_report(out_dir: str | Path) -> tuple[str, bool]:
    """The HTML of a sweep's report, and whether it is clean (False: some run failed)."""
    out_dir = Path(out_dir)
    summary_file = out_dir / "summary.json"
    try:
        document = json.loads(summary_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MetricsError("a sweep's --out without summary.json: the sweep writing it has "
                           "not finished", str(out_dir), exit_code=EXIT_USAGE) from None
    except ValueError as exc:
        raise MetricsError(f"summary.json is not JSON ({exc})", str(summary_file)) from None
    groups = [str(g) for g in document.get("groups", [])]
    rows = pd.read_parquet(out_dir / ROWS_DIR)
    curves = block_curves(rows, groups)
    failures = list(document.get("failures", []))
    runs = document.get("runs", 0)
    about = (f"{runs} runs in {len({tuple(r.get(g) for g in groups) for r in document['summary']})}"
             f" groups ({', '.join(groups) or 'no group keys'}); from {out_dir}")
    data = json.dumps({"title": f"sylla report: sweep {out_dir.name}", "about": about,
                       "curves": curves, "failures": failures}, allow_nan=False,
                      default=str).replace("<", "\\u003c")  # no "</script" or "<!--" inside
    page = asset("sweep.html").decode("utf-8")
    page = page.replace("<!--SYLLA-TABLE-->", summary_table(document.get("summary", []), groups))
    page = page.replace("<!--SYLLA-DATA-->", data)
    return page.replace("<!--SYLLA-ASSETS-->", inline_libraries()), not failures
