"""PNG plots of a comparison: the aggregate intervals and the performance profiles.

matplotlib is imported inside the functions (with the Agg backend), so ``sylla compare``
without ``-o`` never pays for it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from .analyze import Comparison
from .estimators import AGGREGATES
from .profiles import Profile

TITLES = {"iqm": "IQM", "median": "Median", "mean": "Mean", "optimality_gap": "Optimality gap"}


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def _pyplot() -> ModuleType:
    import matplotlib  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when plots are written

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - lazy: after the Agg backend is chosen

    return plt


def interval_plot(c: Comparison, directory: Path) -> Path:
    """One panel per aggregate: each group's point estimate and its interval as a bar."""
    plt = _pyplot()
    groups = list(dict.fromkeys(e.group for e in c.estimates))
    fig, axes = plt.subplots(1, len(AGGREGATES), figsize=(3.2 * len(AGGREGATES), 0.5 * len(groups) + 1.4),
                             sharey=True, squeeze=False)
    for ax, stat in zip(axes[0], AGGREGATES):
        rows = {e.group: e for e in c.estimates if e.stat == stat}
        for y, g in enumerate(groups):
            e = rows[g]
            ax.barh(y, e.high - e.low, left=e.low, height=0.6, color=f"C{y % 10}", alpha=0.6)
            ax.plot([e.point, e.point], [y - 0.3, y + 0.3], color="black", lw=1.5)
        ax.set_title(TITLES[stat])
        ax.set_yticks(range(len(groups)), groups)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{c.metric}: 95% stratified bootstrap intervals", fontsize=10)
    fig.tight_layout()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{_safe(c.metric)}-aggregates.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


def profile_plot(metric: str, profiles: list[Profile], directory: Path) -> Path:
    """Score distributions: the fraction of runs above each threshold, with bands."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for i, p in enumerate(profiles):
        ax.plot(p.taus, p.fraction, color=f"C{i % 10}", label=p.group)
        ax.fill_between(p.taus, p.low, p.high, color=f"C{i % 10}", alpha=0.2, lw=0)
    ax.set_xlabel(f"{metric} (threshold τ)")
    ax.set_ylabel("fraction of runs with score > τ")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{_safe(metric)}-profile.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path
