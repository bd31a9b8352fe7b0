"""The plugins of one run in two lanes (`sylla.metrics.lanes`) give what one loop gives: the
same rows, warnings and details in the same order, and the first error in plugin order."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sylla.metrics import lanes
from sylla.metrics.errors import MetricsError
from sylla.metrics.registry import Context
from sylla.metrics.result import compute_metrics
from sylla.metrics.synth import alternating_plan, write_l2logger

TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]


def _log_and_ste(tmp_path):
    log = write_l2logger(tmp_path / "log", alternating_plan(TASKS, 60, 12, cycles=2), seed=5,
                         rows_per_exp=2)
    for i, t in enumerate(TASKS):
        write_l2logger(tmp_path / "ste" / f"ste_{t}_run1", [("train", [(t, 50)])], seed=i)
    return log, tmp_path / "ste"


def test_two_lanes_give_the_rows_warnings_and_details_of_one(tmp_path, monkeypatch):
    log, ste = _log_and_ste(tmp_path)
    monkeypatch.setattr(lanes, "cores", lambda: 2)
    calls: list[bool] = []
    real = lanes.compute

    def spy(plugins, make_ctx, done, two_lanes):
        calls.append(two_lanes)
        return real(plugins, make_ctx, done, two_lanes)

    monkeypatch.setattr(lanes, "compute", spy)
    two = compute_metrics(log, ste=[ste], progress=False)
    monkeypatch.setattr(lanes, "compute", lambda p, m, d, two_lanes: real(p, m, d, False))
    one = compute_metrics(log, ste=[ste], progress=False)
    assert calls == [True]
    assert len(two.rows) > 100 and two.warnings
    pd.testing.assert_frame_equal(two.rows, one.rows, check_exact=True)
    assert two.warnings == one.warnings
    assert json.dumps(two.details, sort_keys=False, default=str) == json.dumps(
        one.details, sort_keys=False, default=str)


class _Plugin:
    def __init__(self, name: str, side: bool, action: str) -> None:
        self.name, self.side_by_side, self.action = name, side, action

    def compute(self, ctx: Context) -> list[dict]:
        ctx.warn(f"{self.name} ran")
        ctx.detail("t", self.name, 1)
        if self.action == "stop":
            raise MetricsError(f"{self.name} stops")
        if self.action == "fail":
            raise ValueError("broken")
        return [{"metric": self.name}]


@pytest.mark.parametrize("two_lanes", [True, False])
def test_outcomes_come_in_plugin_order_with_the_first_error(monkeypatch, two_lanes):
    monkeypatch.setattr(lanes, "cores", lambda: 2)
    plugins = [_Plugin("a", False, "ok"), _Plugin("b", True, "fail"), _Plugin("c", False, "ok"),
               _Plugin("d", True, "stop"), _Plugin("e", False, "stop")]
    steps: list[int] = []
    got = lanes.compute(plugins, lambda: Context(run=None, ste={}, params={}),
                        lambda: steps.append(1), two_lanes)
    assert [o.produced if o else None for o in got] == [
        [{"metric": "a"}], [], [{"metric": "c"}], [], [] if two_lanes else None]
    assert got[1] is not None and got[1].ctx.warnings == ["b ran", "b: failed (ValueError: broken)"]
    # d's error comes first in plugin order; e, in the other lane, ran only beside it
    assert [str(o.error) if o and o.error else None for o in got] == [
        None, None, None, "d stops", "e stops" if two_lanes else None]
    assert len(steps) == (5 if two_lanes else 4)


@pytest.mark.parametrize("two_lanes", [True, False])
def test_a_lane_stops_at_its_first_error(monkeypatch, two_lanes):
    """As one loop stops at a `MetricsError`: no plugin of that lane runs after it."""
    monkeypatch.setattr(lanes, "cores", lambda: 2)
    plugins = [_Plugin("a", False, "stop"), _Plugin("b", True, "ok"), _Plugin("c", False, "ok")]
    got = lanes.compute(plugins, lambda: Context(run=None, ste={}, params={}), lambda: None,
                        two_lanes)
    assert str(got[0].error) == "a stops" and got[2] is None
    assert (got[1] is not None) == two_lanes  # the other lane runs on; one loop has stopped
