"""``sylla.metrics`` imports nothing at import time (issue 28): the linter's ``required-metric``
rule reads ``sylla.metrics.feasibility``, and that must not load pandas through the package."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import {module}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}})))
"""


def _loaded(module: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_feasibility_and_required_metric_do_not_load_pandas() -> None:
    for module in ("sylla.metrics.feasibility", "sylla.linter.rules.required_metric", "sylla.metrics"):
        assert "pandas" not in _loaded(module), module


def test_public_names_still_resolve() -> None:
    import sylla.metrics as metrics
    from sylla.metrics.errors import MetricsError
    from sylla.metrics.result import MetricsResult, compute_metrics

    assert (metrics.MetricsError, metrics.MetricsResult, metrics.compute_metrics) == (MetricsError, MetricsResult, compute_metrics)
