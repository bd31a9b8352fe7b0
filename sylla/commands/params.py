"""The ``-P NAME=VALUE`` metric parameters of ``sylla metrics``, ``watch``, ``report`` and ``sweep``."""

from __future__ import annotations

from sylla.metrics.errors import EXIT_USAGE, MetricsError


def metric_params(items: list[str]) -> dict[str, str]:
    """The ``-P NAME=VALUE`` options of sylla metrics, watch and sweep as a dict (the last
    of a repeated name wins); a malformed one is a usage error, not a traceback."""
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise MetricsError(f"--param wants NAME=VALUE, got {item!r}", exit_code=EXIT_USAGE)
        params[name.strip()] = value.strip()
    return params
