"""The run's arrays grown in place by an incremental update."""

from __future__ import annotations

import numpy as np

from sylla.metrics.watch.growing import Growing


def test_growing_views_stay_as_they_were() -> None:
    grow = Growing(np.arange(3.0))
    before = grow.values
    for k in range(300):  # several reallocations
        grow.extend(np.array([float(k), float(k)]))
    assert before.tolist() == [0.0, 1.0, 2.0]
    assert grow.values.size == 603 and grow.values[-1] == 299.0
