"""PNG plots: per-task learning curves and the transfer (test-performance) matrix.

Uses matplotlib's Agg backend (no display needed). Curves are drawn against the run's episode
axis; each phase is shaded (train blue, test orange) and labelled with its ``$phase`` label, blocks
where learning is off are hatched, and each train block's saturation value (reference
definition) is marked where it is reached. The transfer matrix colours each cell by its change from
"no transfer" (the task's baseline test, else its first row) on a diverging map centred at 0,
and writes the value in black or white by the cell's luminance. Long curves are decimated to at most
~4000 points per block so plotting stays cheap for 10M-episode logs.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from .data import as_frame, with_frames
from .errors import EXIT_USAGE, MetricsError
from .plugins.gem import performance_matrix
from .plugins.reference import saturation
from .preprocess import rolling, window_of
from .result import MetricsResult

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

MAX_POINTS = 4000


def _decimate(x: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    step = max(1, x.size // MAX_POINTS)
    idx = np.arange(0, x.size, step)
    return idx + offset, x[idx]


def write_plots(result: MetricsResult, out: Path) -> list[Path]:
    import matplotlib  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    for run in result.runs:  # the plots select blocks with DataFrame operations
        with_frames(run)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MetricsError(f"cannot create plot directory: {exc.strerror}", str(out),
                           exit_code=EXIT_USAGE) from None
    s = float(result.params.get("s", 0.1))
    written: list[Path] = []
    for run in result.runs:
        b = as_frame(run.blocks)  # already one (with_frames above)
        for task in run.tasks:
            fig, ax = plt.subplots(figsize=(10, 4.4))
            _phases(ax, b)
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
                    sx, sy = _decimate(smooth, int(a))
                    ax.plot(sx, sy, color=color, lw=1.6)
                if kind == "train" and x.size and np.isfinite(x).all():  # iscil: no train data
                    value, time = saturation(x, s)
                    if not math.isnan(value):
                        ax.plot([a + time], [value], marker="*", color="crimson", ms=12,
                                zorder=5)
                        ax.hlines(value, a, z, colors="crimson", linestyles="dotted", lw=1)
            ax.set_title(f"{task} — run {run.run} (blue: train, orange: test, hatched: learning "
                         "off, ★ saturation)", fontsize=10, pad=16)
            ax.set_xlabel("episode")
            ax.set_ylabel("performance")
            ax.set_xlim(0, max(int(b.stop.max()), 1))
            fig.tight_layout()
            target = out / f"{_safe(run.run)}_{_safe(task)}_learning.png"
            fig.savefig(target, dpi=100)
            plt.close(fig)
            written.append(target)
        order, R, base, labels = performance_matrix(run)
        if order and not np.isnan(R).all():
            written.append(_matrix(plt, out, run.run, order, R, base, labels))
    return written


def _phases(ax: Axes, b: pd.DataFrame) -> None:
    """Shade and label each phase (a run of blocks with one ``$phase`` label) and hatch the
    blocks where learning is off."""
    from matplotlib.transforms import blended_transform_factory  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    top = blended_transform_factory(ax.transData, ax.transAxes)
    labels, kinds = b.phase.astype(str).to_numpy(), b.kind.astype(str).to_numpy()
    starts, stops = b.start.to_numpy(), b.stop.to_numpy()
    i = 0
    while i < len(b):
        j = i
        while j + 1 < len(b) and labels[j + 1] == labels[i] and kinds[j + 1] == kinds[i]:
            j += 1
        a, z = int(starts[i]), int(stops[j])
        color = "tab:blue" if kinds[i] == "train" else "tab:orange"
        ax.axvspan(a, z, color=color, alpha=0.08, lw=0)
        ax.axvline(a, color="0.6", lw=0.6)
        ax.text((a + z) / 2, 1.01, labels[i] or kinds[i], transform=top, ha="center",
                va="bottom", fontsize=8, color=color, clip_on=False)
        i = j + 1
    learning = b.learning.to_numpy() if "learning" in b.columns else kinds == "train"
    for a, z, on, kind in zip(starts, stops, learning, kinds):
        unknown = on is None or (isinstance(on, float) and math.isnan(on))
        if (kind != "train") if unknown else not bool(on):
            ax.axvspan(int(a), int(z), facecolor="none", edgecolor="0.55", hatch="///", lw=0,
                       alpha=0.5)


def luminance(rgba: tuple[float, ...]) -> float:
    """Relative luminance of an sRGB colour (WCAG 2 formula)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_color(rgba: tuple[float, ...]) -> str:
    """Black on light cells, white on dark ones (the higher WCAG contrast of the two)."""
    lum = luminance(rgba)
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def _matrix(plt: ModuleType, out: Path, run: str, order: list[str], R: np.ndarray, base: np.ndarray,
            labels: list[str]) -> Path:
    from matplotlib.colors import TwoSlopeNorm  # noqa: PLC0415 - lazy: start-up, matplotlib loads only when used

    T = len(order)
    reference = np.where(np.isnan(base), R[0], base)
    change = R - reference[None, :]
    span = float(np.nanmax(np.abs(change))) if np.isfinite(change).any() else 0.0
    span = span or 1.0
    norm = TwoSlopeNorm(vmin=-span, vcenter=0.0, vmax=span)
    cmap = plt.get_cmap("RdBu")
    fig, ax = plt.subplots(figsize=(1.3 * T + 3.5, 1.0 * T + 2.2))
    image = ax.imshow(change, cmap=cmap, norm=norm, aspect="auto")
    ax.set_xticks(range(T), order, rotation=45, ha="right")
    ax.set_yticks(range(T), [f"after {t} ({lab})" for t, lab in zip(order, labels)])
    for i in range(T):
        for j in range(T):
            if not math.isnan(R[i, j]):
                rgba = cmap(norm(change[i, j])) if not math.isnan(change[i, j]) else (1, 1, 1, 1)
                ax.text(j, i, f"{R[i, j]:.3g}", ha="center", va="center", fontsize=8,
                        color=text_color(rgba))
    ax.set_xlabel("tested task")
    what = "baseline test b[j]" if not np.isnan(base).all() else "first row R[0][j]"
    ax.set_title("Test performance R[i][j] on j after training i\n"
                 f"colour: change from {what} (white = no transfer)", fontsize=10)
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(f"R[i][j] − {what.split()[-1]}")
    fig.tight_layout()
    target = out / f"{_safe(run)}_transfer_matrix.png"
    fig.savefig(target, dpi=100)
    plt.close(fig)
    return target


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in str(name)) or "x"
