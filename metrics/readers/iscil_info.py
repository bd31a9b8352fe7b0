"""What the continual-imitation reader stores on a run's first block, read back.

A module of its own so the iscil metric plugin, which every run meets, can ask any run for it
without importing the reader (a large module, and no part of measuring other logs; issue 24).
"""

from __future__ import annotations

import json


def run_info(params: str) -> dict:
    """The experiment index, count and compat reading stored on a run's first block."""
    try:
        info = json.loads(params) if params else {}
    except ValueError:
        return {}
    return info if isinstance(info, dict) and "iscil_experiment" in info else {}
