"""sylla's metrics plugin: map a validated syllabus onto logged performance and measure it.

``compute_metrics(log, syllabus=None, ...)`` reads the log (format detected), aligns it with the
schedule, runs every registered metric plugin and returns a `MetricsResult` with tidy rows
``run, task, block, phase, metric, value`` and warnings. Bad input raises `MetricsError`.

The package imports nothing at import time: ``compute_metrics`` and ``MetricsResult`` load
pandas (through ``result``) on first use (module ``__getattr__``), so that a submodule the
linter needs (``feasibility`` for ``required-metric``) does not pay for pandas, and no
submodule's import of a sibling runs this file's imports first (issue 28).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import MetricsError as MetricsError
    from .result import MetricsResult as MetricsResult
    from .result import compute_metrics as compute_metrics

__all__ = ["MetricsError", "MetricsResult", "compute_metrics"]

_HOME = {"MetricsError": ".errors", "MetricsResult": ".result", "compute_metrics": ".result"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name], __name__), name)
