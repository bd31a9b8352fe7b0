"""PNG plots: per-task learning curves and the transfer (test-performance) matrix.

Uses matplotlib's Agg backend (no display needed). Curves are drawn against the run's episode
axis; train phases are shaded blue and test phases orange, and each train block's saturation
value (reference definition) is marked where it is reached. Long curves are decimated to at most
~4000 points per block so plotting stays cheap for 10M-episode logs.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from .errors import EXIT_USAGE, MetricsError
from .plugins.gem import performance_matrix
from .plugins.reference import saturation
from .preprocess import rolling, window_of
from .result import MetricsResult

MAX_POINTS = 4000


def _decimate(x: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    step = max(1, x.size // MAX_POINTS)
    idx = np.arange(0, x.size, step)
    return idx + offset, x[idx]


def write_plots(result: MetricsResult, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MetricsError(f"cannot create plot directory: {exc.strerror}", str(out),
                           exit_code=EXIT_USAGE) from None
    s = float(result.params.get("s", 0.1))
    written: list[Path] = []
    for run in result.runs:
        b = run.blocks
        for task in run.tasks:
            fig, ax = plt.subplots(figsize=(10, 4))
            for kind, color in (("train", "tab:blue"), ("test", "tab:orange")):
                for a, z in zip(b.start[b.kind == kind], b.stop[b.kind == kind]):
                    ax.axvspan(a, z, color=color, alpha=0.08, lw=0)
            mine = b[b.task == task]
            for a, z, kind in zip(mine.start, mine.stop, mine.kind):
                x = run.perf[a:z]
                color = "tab:blue" if kind == "train" else "tab:orange"
                ex, ey = _decimate(x, int(a))
                ax.plot(ex, ey, color=color, alpha=0.35, lw=0.8,
                        marker="o" if x.size == 1 else None)  # one evaluation: a dot
                w = window_of(x.size, s)
                smooth = rolling(x, w)
                if smooth.size:
                    sx, sy = _decimate(smooth, int(a) + w - 1)
                    ax.plot(sx, sy, color=color, lw=1.6)
                if kind == "train" and x.size and np.isfinite(x).all():  # iscil: no train data
                    value, time = saturation(x, s)
                    if not math.isnan(value):
                        ax.plot([a + time], [value], marker="*", color="crimson", ms=12,
                                zorder=5)
                        ax.hlines(value, a, z, colors="crimson", linestyles="dotted", lw=1)
            ax.set_title(f"{task} — run {run.run} (blue: train, orange: test, ★ saturation)")
            ax.set_xlabel("episode")
            ax.set_ylabel("performance")
            fig.tight_layout()
            target = out / f"{_safe(run.run)}_{_safe(task)}_learning.png"
            fig.savefig(target, dpi=100)
            plt.close(fig)
            written.append(target)
        order, R, _base, labels = performance_matrix(run)
        if order and not np.isnan(R).all():
            fig, ax = plt.subplots(figsize=(1.2 * len(order) + 3, 1.0 * len(order) + 2))
            image = ax.imshow(R, cmap="viridis", aspect="auto")
            ax.set_xticks(range(len(order)), order, rotation=45, ha="right")
            ax.set_yticks(range(len(order)), [f"after {t} ({lab})" for t, lab in zip(order, labels)])
            for i in range(len(order)):
                for j in range(len(order)):
                    if not math.isnan(R[i, j]):
                        ax.text(j, i, f"{R[i, j]:.3g}", ha="center", va="center", color="w",
                                fontsize=8)
            ax.set_xlabel("tested task")
            ax.set_title("Transfer matrix R[i][j]: test performance on j after training i")
            fig.colorbar(image, ax=ax)
            fig.tight_layout()
            target = out / f"{_safe(run.run)}_transfer_matrix.png"
            fig.savefig(target, dpi=100)
            plt.close(fig)
            written.append(target)
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in str(name)) or "x"
