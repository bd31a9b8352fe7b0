"""Plots a reader can read: cell text contrasts with its cell, the matrix diverges around "no
transfer", and learning curves label their phases and mark where learning is off."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

from sylla.metrics.plots import _phases, luminance, text_color, write_plots

from .conftest import make_run


@pytest.mark.parametrize("rgba, expected", [
    ((0.993, 0.906, 0.144, 1.0), "black"),  # viridis' yellow: white text was unreadable
    ((1.0, 1.0, 1.0, 1.0), "black"),
    ((0.02, 0.19, 0.38, 1.0), "white"),     # RdBu's dark blue
    ((0.40, 0.0, 0.12, 1.0), "white"),      # RdBu's dark red
])
def test_text_colour_follows_luminance(rgba, expected):
    assert text_color(rgba) == expected


def test_diverging_map_is_white_at_no_transfer():
    assert luminance(plt.get_cmap("RdBu")(0.5)) > 0.85


def test_learning_curve_labels_phases_and_hatches_learning_off():
    run = make_run([("A", "train", [1, 2, 3]), ("A", "test", [3, 3]), ("B", "test", [0, 1]),
                    ("B", "train", [1, 2, 4]), ("A", "test", [2, 2])])
    fig, ax = plt.subplots()
    _phases(ax, run.blocks)
    labels = [t.get_text() for t in ax.texts]
    assert labels == ["1.train", "1.test", "2.train", "2.test"]
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == 3  # the three test blocks, where learning is off
    plt.close(fig)


def test_write_plots_end_to_end(tmp_path):
    from sylla.metrics import compute_metrics

    from .conftest import FIXTURES, SYLLABUS

    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS)
    written = write_plots(r, tmp_path)
    assert sorted(p.name for p in written) == ["rewards_Breakout_learning.png",
                                               "rewards_Pong_learning.png",
                                               "rewards_transfer_matrix.png"]
    assert all(p.stat().st_size > 1000 for p in written)
