"""Learning curves of the wave-3 online trials (docs/metrics.md, *Online trials*).

- accuracy by trial (1-11): the mean over (problem, run, ordering) with a 95 % Wilson score
  interval, overall and per problem group;
- variance across runs (for each problem, ordering and trial, the sample variance of accuracy
  over the runs, averaged) and across orderings (over the orderings, per problem, run, trial);
- search sensitivity: for each trial and CPU time t, the accuracy had search stopped at t, that
  is with the last best-so-far program found by t (no program yet: wrong).
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from sylla.grammar.trials.model import TRIALS

from .readers.deliveries import TrialsData

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (Wilson 1927)."""
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def accuracy_by_trial(preds: pd.DataFrame) -> pd.DataFrame:
    """Rows: group ("all", "P1.1", ...), trial, n, accuracy, ci_low, ci_high."""
    rows = []
    for group, frame in [("all", preds), *sorted(preds.groupby("group"), key=lambda g: g[0])]:
        for trial, f in frame.groupby("trial"):
            n, k = len(f), int(f["accuracy"].sum())
            lo, hi = wilson(k, n)
            rows.append({"group": group, "trial": int(trial), "n": n, "accuracy": k / n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["group", "trial", "n", "accuracy", "ci_low", "ci_high"])


def variance_by_trial(preds: pd.DataFrame) -> pd.DataFrame:
    """Rows: trial, var_runs, var_orders, cells_runs, cells_orders (NaN when no cell has two values)."""
    rows: list[dict] = []
    for trial, f in preds.groupby("trial"):
        vr = f.groupby(["problem", "order"])["accuracy"].var(ddof=1).dropna()
        vo = f.groupby(["problem", "run"])["accuracy"].var(ddof=1).dropna()
        rows.append({"trial": int(trial), "var_runs": float(vr.mean()) if len(vr) else math.nan,
                     "var_orders": float(vo.mean()) if len(vo) else math.nan,
                     "cells_runs": int(len(vr)), "cells_orders": int(len(vo))})
    return pd.DataFrame(rows, columns=["trial", "var_runs", "var_orders", "cells_runs", "cells_orders"])


def search_sensitivity(bests: pd.DataFrame, points: int = 60) -> pd.DataFrame:
    """Rows: trial (0 = all trials), t (CPU seconds), accuracy.

    Each (problem, run, order, trial) contributes its status at time t: right when the last
    best-so-far program with cpu ≤ t is right on the test example. Computed from status
    changes: a change at cpu c adds (new − old)/K to every t ≥ c."""
    if bests is None or bests.empty or (bests["correct"] < 0).any():
        return pd.DataFrame(columns=["trial", "t", "accuracy"])
    b = bests.sort_values(["problem", "run", "order", "trial", "seq"])
    key = b[["problem", "run", "order", "trial"]].to_numpy()
    new_key = np.ones(len(b), dtype=bool)
    new_key[1:] = (key[1:] != key[:-1]).any(axis=1)
    correct = b["correct"].to_numpy()
    prev = np.where(new_key, 0, np.roll(correct, 1))
    delta = correct - prev
    cpu = b["cpu"].to_numpy()
    positive = cpu[cpu > 0]
    lo = positive.min() if len(positive) else 1e-3
    hi = max(cpu.max(), lo * 10)
    grid = np.unique(np.concatenate([np.geomspace(lo, hi, points), [hi]]))
    rows: list[dict] = []
    trials = b["trial"].to_numpy()
    for trial in [0, *sorted(set(trials.tolist()))]:
        mask = np.ones(len(b), bool) if trial == 0 else trials == trial
        k = int(new_key[mask].sum())
        order = np.argsort(cpu[mask], kind="stable")
        c, d = cpu[mask][order], np.cumsum(delta[mask][order])
        idx = np.searchsorted(c, grid, side="right")
        acc = np.where(idx > 0, d[np.maximum(idx - 1, 0)], 0) / k
        rows.extend({"trial": int(trial), "t": float(t), "accuracy": float(a)} for t, a in zip(grid, acc))
    return pd.DataFrame(rows, columns=["trial", "t", "accuracy"])


def compute(data: TrialsData) -> dict[str, pd.DataFrame]:
    return {
        "accuracy": accuracy_by_trial(data.predictions),
        "variance": variance_by_trial(data.predictions),
        "search": search_sensitivity(data.bests) if data.bests is not None else pd.DataFrame(columns=["trial", "t", "accuracy"]),
    }


def tidy(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One long table for CSV/Parquet/JSON: section, group, trial, t, metric, value, ci_low, ci_high, n."""
    parts = []
    a = tables["accuracy"]
    if len(a):
        parts.append(pd.DataFrame({"section": "accuracy", "group": a["group"], "trial": a["trial"], "t": math.nan,
                                   "metric": "accuracy", "value": a["accuracy"], "ci_low": a["ci_low"],
                                   "ci_high": a["ci_high"], "n": a["n"]}))
    v = tables["variance"]
    for metric in ("var_runs", "var_orders"):
        if len(v):
            parts.append(pd.DataFrame({"section": "variance", "group": "all", "trial": v["trial"], "t": math.nan,
                                       "metric": metric, "value": v[metric], "ci_low": math.nan, "ci_high": math.nan,
                                       "n": v["cells_runs" if metric == "var_runs" else "cells_orders"]}))
    s = tables["search"]
    if len(s):
        parts.append(pd.DataFrame({"section": "search", "group": "all", "trial": s["trial"], "t": s["t"],
                                   "metric": "accuracy_at_t", "value": s["accuracy"], "ci_low": math.nan,
                                   "ci_high": math.nan, "n": math.nan}))
    cols = ["section", "group", "trial", "t", "metric", "value", "ci_low", "ci_high", "n"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def render_text(data: TrialsData, tables: dict[str, pd.DataFrame]) -> str:
    lines = []
    src = "derived from bests.csv (last best-so-far program on the test input)" if data.derived else "predictions.csv"
    lines.append(f"wave-3 learning curves: {len(data.predictions):,} trials; predictions from {src}")
    a = tables["accuracy"]
    groups = list(dict.fromkeys(a["group"]))
    lines.append("")
    lines.append("accuracy by trial, mean [95% Wilson interval]")
    lines.append("trial " + "".join(f"{g:>22}" for g in groups))
    for trial in sorted(set(a["trial"])):
        cells = []
        for g in groups:
            r = a[(a["group"] == g) & (a["trial"] == trial)]
            cells.append(f"{r['accuracy'].iloc[0]:.3f} [{r['ci_low'].iloc[0]:.3f},{r['ci_high'].iloc[0]:.3f}]" if len(r) else "-")
        lines.append(f"{trial:>5} " + "".join(f"{c:>22}" for c in cells))
    v = tables["variance"]
    lines.append("")
    lines.append("variance of accuracy       across runs   across orderings")
    show = lambda x, why: f"{x:.4f}" if not math.isnan(x) else why
    for _, r in v.iterrows():
        lines.append(f"  trial {int(r['trial']):>2}            {show(r['var_runs'], 'one run'):>11}   "
                     f"{show(r['var_orders'], 'one ordering'):>16}")
    s = tables["search"]
    if len(s):
        allt = s[s["trial"] == 0]
        lines.append("")
        lines.append("search sensitivity (all trials): accuracy had search stopped at t")
        for q in (0, len(allt) // 4, len(allt) // 2, 3 * len(allt) // 4, len(allt) - 1):
            r = allt.iloc[q]
            lines.append(f"  t = {r['t']:>10.3f} s   accuracy {r['accuracy']:.3f}")
    for note in data.notes:
        lines.append(f"note: {note}")
    for name, reasons in data.bad.items():
        for reason, rows in reasons.items():
            shown = ", ".join(map(str, rows[:8])) + (f", ... ({len(rows)} in all)" if len(rows) > 8 else "")
            lines.append(f"bad rows: {name}: {len(rows)} {reason}: rows {shown}")
    return "\n".join(lines)


def write_plots(tables: dict[str, pd.DataFrame], folder: str | Path) -> list[Path]:
    import matplotlib  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    a = tables["accuracy"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for g, f in a.groupby("group", sort=False):
        ax.plot(f["trial"], f["accuracy"], marker="o", label=g, linewidth=2.5 if g == "all" else 1.2)
        ax.fill_between(f["trial"], f["ci_low"], f["ci_high"], alpha=0.15)
    ax.set(xlabel="trial", ylabel="accuracy", title="Accuracy by trial (95% Wilson interval)", ylim=(0, 1), xticks=range(1, TRIALS + 1))
    ax.legend()
    written.append(_save(fig, folder / "accuracy_by_trial.png", plt))
    v = tables["variance"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(v["trial"], v["var_runs"], marker="o", label="across runs")
    ax.plot(v["trial"], v["var_orders"], marker="s", label="across orderings")
    ax.set(xlabel="trial", ylabel="variance of accuracy", title="Variance across runs and orderings", xticks=range(1, TRIALS + 1))
    ax.legend()
    written.append(_save(fig, folder / "variance_by_trial.png", plt))
    s = tables["search"]
    if len(s):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for trial, f in s.groupby("trial"):
            ax.plot(f["t"], f["accuracy"], label="all trials" if trial == 0 else f"trial {trial}",
                    linewidth=2.5 if trial == 0 else 0.8, color="black" if trial == 0 else None)
        ax.set(xscale="log", xlabel="CPU time t (s)", ylabel="accuracy had search stopped at t", title="Search sensitivity", ylim=(0, 1))
        ax.legend(fontsize=7, ncol=2)
        written.append(_save(fig, folder / "search_sensitivity.png", plt))
    return written


def _save(fig: Figure, path: Path, plt: ModuleType) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
