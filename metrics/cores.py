"""The cores this process may run on: how many stretches a convolution is cut into
(`sylla.metrics.convolve`) and whether plugins run in two lanes (`sylla.metrics.lanes`)."""

from __future__ import annotations

import functools
import os


@functools.cache
def cores() -> int:
    """The CPUs this process may run on (its affinity on Linux, else the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
