"""A plain log's episode numbers as a sequence: none missing, and rows in an order that places
them.

A plain log's ``episode`` is the episode's index in the schedule (docs/metrics.md), so each run
and worker numbers its episodes 0, 1, 2, ... Without a syllabus nothing else says where an
episode belongs, so a deleted row would leave its block one episode short, and a stray number
(``99999`` in the middle of a run) would make a block of its own after the last one (issue 38).
Both show as a hole in the numbers, which is an error naming the episode and the row after it;
``--allow-partial`` turns it into a warning, and the metrics use the episodes present.

Rows out of order (``5, 7, 6, 8``) are placed by their numbers, as they always were. That is
safe when the file's order and the numbers make the same blocks (a writer that flushed two
episodes late): a warning names the first such episode. When the two orders make different
blocks (a test episode numbered into the middle of a train block), the row cannot be placed:
either its number or its place in the file is wrong, and that is an error. A log written
newest first (numbers falling throughout) is in order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import MetricsError

#: the columns whose values split a plain log into blocks (``block_num`` is its ``block``)
STRUCTURE = ("task", "block_type", "phase", "block_num")


def check_sequence(frame: pd.DataFrame, file: str, allow_partial: bool,
                   start: int | None = 0, grouped: bool = True) -> list[str]:
    """Check each run's and worker's episode numbers (``frame`` in file order, one row per
    logged row, repeats of an episode adjacent: `plain._check_repeats` has refused others);
    returns the warnings. ``start``: the number the first episode must have (None: any, for the
    rows appended to a log that `sylla watch` reads on their own). ``grouped=False``: the log
    has no ``run`` or ``worker`` column, so it is one sequence (grouping a few million rows by
    two constant columns costs more than every check here)."""
    warnings: list[str] = []
    if grouped:
        runs, workers = frame["run"].nunique() > 1, frame["worker"].nunique() > 1
        parts = frame.groupby(["run", "worker"], sort=False)
    else:
        runs = workers = False
        parts = [((None, None), frame)]
    for (run, worker), part in parts:
        who = ", ".join([f"run {run!r}"] * runs + [f"worker {worker!r}"] * workers)
        who += ": " if who else ""
        episodes = part["episode"].to_numpy()
        rows = part["row"].to_numpy()
        first = np.r_[True, episodes[1:] != episodes[:-1]]
        numbers, at = episodes[first], rows[first]
        order = _order(numbers, part, first, at, file, who)
        if order is not None:
            warnings.append(order)
        gap = _gap(numbers, at, start)
        if gap is not None:
            message, row = gap
            if not allow_partial:
                raise MetricsError(who + message + " (use --allow-partial to compute without "
                                   "the missing episodes)", file, row)
            warnings.append(f"{file}:{row}: {who}{message}; metrics use the episodes present")
    return warnings


def _gap(numbers: np.ndarray, rows: np.ndarray, start: int | None) -> tuple[str, int] | None:
    """The first missing episode number (and the row of the episode after it), worded; None
    when the numbers run from ``start`` without a hole. Never builds the full range: a stray
    number near 2^53 is one hole, not an array of that length."""
    rising = bool((numbers[1:] > numbers[:-1]).all())  # the usual log: no sort needed
    by_number = np.arange(numbers.size) if rising else np.argsort(numbers, kind="stable")
    ordered = numbers if rising else numbers[by_number]
    origin = int(ordered[0]) if start is None else start
    step = np.diff(np.r_[origin - 1, ordered])
    if not (step > 1).any():
        return None
    k = int(np.argmax(step > 1))
    missing = int(step[step > 1].sum() - (step > 1).sum())
    gap_first = origin if k == 0 else int(ordered[k - 1]) + 1
    gap_last = int(ordered[k]) - 1
    span = (f"episode {gap_first} is missing" if gap_first == gap_last
            else f"episodes {gap_first}-{gap_last} are missing")
    where = (f"the log starts at episode {int(ordered[0])}" if k == 0
             else f"the log goes from episode {int(ordered[k - 1])} to {int(ordered[k])}")
    more = f"; {missing} episode(s) are missing in all" if missing > gap_last - gap_first + 1 else ""
    return f"{span} ({where}{more})", int(rows[by_number[k]])


def _order(numbers: np.ndarray, part: pd.DataFrame, first: np.ndarray, rows: np.ndarray,
           file: str, who: str) -> str | None:
    """A warning for episodes out of order whose numbers place them in the blocks the file's
    order makes; an error when the two orders make different blocks; None in order (rising,
    or falling throughout). ``first``: the rows of ``part`` that open an episode."""
    step = np.diff(numbers)  # never 0: an episode's rows are adjacent
    if not (step < 0).any() or (step < 0).all():
        return None
    i = int(np.argmax(step < 0)) + 1  # the first episode numbered below the one before it
    said = (f"episode {int(numbers[i])} (row {int(rows[i])}) comes after episode "
            f"{int(numbers[i - 1])} (row {int(rows[i - 1])})")
    columns = [c for c in STRUCTURE if c in part.columns]
    if columns:
        codes = np.column_stack([pd.factorize(part[c].to_numpy()[first])[0] for c in columns])
        if not _same_runs(codes, codes[np.argsort(numbers, kind="stable")]):
            raise MetricsError(
                f"{who}{said}, and the file's order and the episode numbers make different "
                f"blocks ({', '.join(c.replace('block_num', 'block') for c in columns)}): "
                "either its number or its place in the file is wrong", file, int(rows[i]))
    return (f"{file}:{int(rows[i])}: {who}{said}: rows out of order are placed by their "
            "episode numbers")


def _same_runs(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two sequences of keys (rows of codes) break into the same runs of equal keys."""
    def runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        change = np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)]
        starts = np.flatnonzero(change)
        return keys[starts], np.diff(np.r_[starts, len(keys)])

    (ka, la), (kb, lb) = runs(a), runs(b)
    return ka.shape == kb.shape and bool((ka == kb).all()) and bool((la == lb).all())
