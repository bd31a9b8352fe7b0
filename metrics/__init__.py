"""sylla's metrics plugin: map a validated syllabus onto logged performance and measure it.

``compute_metrics(log, syllabus=None, ...)`` reads the log (format detected), aligns it with the
schedule, runs every registered metric plugin and returns a `MetricsResult` with tidy rows
``run, task, block, phase, metric, value`` and warnings. Bad input raises `MetricsError`.
"""

from __future__ import annotations

from .errors import MetricsError
from .result import MetricsResult, compute_metrics

__all__ = ["MetricsError", "MetricsResult", "compute_metrics"]
