"""Forest plots: one PNG per metric, one line per group (and task), the mean with its 95 %
bootstrap interval and the median; a dashed zero line for paired differences.

Matplotlib's Agg backend, no display needed. Files are written atomically.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .aggregate import CELL, STATS
from .cache import atomic_write

#: more rows than this in one plot are unreadable; the rest are left out with a note in the title
MAX_ROWS = 60


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "metric"


def _label(rec: dict[str, Any], keys: list[str]) -> str:
    parts = [str(rec[k]) for k in keys if rec.get(k) is not None and not pd.isna(rec[k])]
    task = rec.get("task")
    if task is not None and not pd.isna(task):
        parts.append(f"task {task}")
    phase = rec.get("phase")
    if phase is not None and not pd.isna(phase):
        parts.append(f"phase {phase}")
    return " · ".join(parts) or "lifetime"


def _forest(frame: pd.DataFrame, keys: list[str], title: str, target: Path,
            zero: bool = False) -> Path:
    import matplotlib  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    recs = frame.to_dict("records")
    shown = recs[:MAX_ROWS]
    # keys with one value throughout say nothing per line: they go into the title
    fixed = [k for k in keys if k in frame and frame[k].astype(str).nunique() == 1
             and len(recs) > 1]
    if fixed:
        title += "\n" + textwrap.fill(", ".join(f"{k}={frame[k].iloc[0]}" for k in fixed), 90)
        keys = [k for k in keys if k not in fixed]
    labels = [_label(r, keys) + f"  (n={int(r['n'])})" for r in shown]
    mean = np.array([r["mean"] for r in shown], dtype=float)
    low = np.array([r["ci_low"] for r in shown], dtype=float)
    high = np.array([r["ci_high"] for r in shown], dtype=float)
    median = np.array([r["median"] for r in shown], dtype=float)
    y = np.arange(len(shown))[::-1]
    fig, ax = plt.subplots(figsize=(9, 2.2 + 0.35 * len(shown)), layout="constrained")
    has_ci = np.isfinite(low) & np.isfinite(high)
    ax.errorbar(mean[has_ci], y[has_ci],
                xerr=[mean[has_ci] - low[has_ci], high[has_ci] - mean[has_ci]],
                fmt="o", color="tab:blue", ecolor="tab:blue", capsize=3, label="mean, 95% CI")
    if (~has_ci).any():
        ax.plot(mean[~has_ci], y[~has_ci], "o", color="tab:gray", label="mean (no CI: n < 2)")
    ax.plot(median, y, "|", color="tab:orange", markersize=12, label="median")
    if zero:
        ax.axvline(0.0, color="black", linestyle="--", linewidth=0.8)
    ax.set_yticks(y, labels)
    more = f" (first {MAX_ROWS} of {len(recs)})" if len(recs) > MAX_ROWS else ""
    ax.set_title(title + more)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3, fontsize="small",
              frameon=False)
    atomic_write(target, lambda tmp: fig.savefig(tmp, dpi=100, format="png"))
    plt.close(fig)
    return target


def forest_plots(result: Any, out: Path) -> list[Path]:
    """``<metric>.png`` for the summary and ``compare_<metric>.png`` for paired differences."""
    from .report import sorted_frame  # noqa: PLC0415 - lazy: start-up, sylla.metrics.sweep.report loads only when used

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    summary = sorted_frame(result.summary, result.groups)
    for metric, part in summary.groupby("metric", sort=True):
        written.append(_forest(part, result.groups, f"{metric} across runs",
                               out / f"{_safe(str(metric))}.png"))
    if result.compare_key is not None and not result.compare.empty:
        strata = [g for g in result.compare.columns if g not in ["a", "b"] + CELL + STATS]
        comp = sorted_frame(result.compare, strata + ["a", "b"])
        comp = comp.assign(pair=comp["a"].astype(str) + " − " + comp["b"].astype(str))
        for metric, part in comp.groupby("metric", sort=True):
            written.append(_forest(part, strata + ["pair"],
                                   f"{metric}: paired difference by {result.compare_key}",
                                   out / f"compare_{_safe(str(metric))}.png", zero=True))
    return written
