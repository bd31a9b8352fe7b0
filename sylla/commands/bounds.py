"""Number options with the range the command can honour, declared where the option is.

A number on the command line drives an allocation, a loop or a system call: ``--workers
1000000000`` made ``explain`` loop for hours, ``--reps 10**12`` made ``compare`` draw for ever,
``--seed -1`` reached numpy as a traceback, ``--port 99999`` reached ``socket.bind`` as one, and
``--gain 1e308`` wrote a log of ``inf`` rewards (issue 38). Each such option takes its ``type``
from here, so argparse refuses a value outside the range with the option's name and exit 2
before any work starts, and the range is written once, beside the option's help.
"""

from __future__ import annotations

import argparse
import math

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable

#: numpy's seed range for ``default_rng`` as sylla uses it (one 32-bit word)
SEED_MAX = 2**32 - 1
#: a TCP port
PORT_MAX = 65535
#: the most episodes one count may hold, H506's limit (``grammar.syllabus.schedule.MAX_EPISODES``,
#: which a command cannot import at registration; a test keeps the two equal)
COUNT_MAX = 10**9


def integer(low: int, high: int) -> "Callable[[str], int]":
    """An argparse ``type``: a whole number from ``low`` to ``high`` inclusive."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"wants a whole number from {low:,} to {high:,}, not {_short(text)!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"wants a whole number from {low:,} to {high:,}, not {_short(text)}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its own messages
    return parse


def real(low: float, high: float) -> "Callable[[str], float]":
    """An argparse ``type``: a finite number from ``low`` to ``high`` inclusive (never NaN)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"wants {_range(low, high)}, not {_short(text)!r}") from None
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"wants {_range(low, high)}, not {_short(text)}")
        return value

    parse.__name__ = "number"
    return parse


def _range(low: float, high: float) -> str:
    if math.isinf(low) and math.isinf(high):
        return "a finite number"
    return f"a number from {low:g} to {high:g}"


def _short(text: str) -> str:
    """The value as typed, cut to a readable length (a 5,000-digit number stays one line)."""
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"
