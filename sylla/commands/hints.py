"""One-line hints for a path given to the wrong command: a log to ``sylla lint``, a syllabus
to ``sylla metrics``, a folder of many runs to ``sylla metrics`` instead of ``sylla sweep``.

A newcomer's first guess at which command takes which file is often wrong; the answer should
name the right command in one line, not a traceback or a format-detection message. The tests
here are cheap and use only the standard library, because ``sylla lint`` must start fast and
work without the ``metrics`` extra (so this cannot ask `sylla.metrics.readers.detect`, which
loads pandas). They mirror the readers' own detection: an l2logger run has
``logger_info.json``, a learnkit run has ``block-report.tsv`` or ``worker-env-K`` folders, a
continual-imitation run has ``training_log.log``; a plain log is a CSV/TSV/JSONL/Parquet file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_WORKER = re.compile(r"worker-env-\d+\Z")
_LOG_SUFFIXES = (".csv", ".tsv", ".tab", ".jsonl", ".ndjson", ".parquet", ".pq")
_LOG_FILES = ("logger_info.json", "block-report.tsv", "training_log.log")


def is_log_dir(path: str) -> bool:
    """A run directory that `sylla metrics` reads as one log (l2logger, learnkit, iscil)."""
    try:
        names = os.listdir(path)
    except OSError:
        return False
    return any(n in _LOG_FILES for n in names) or any(
        _WORKER.match(n) and os.path.isdir(os.path.join(path, n)) for n in names)


def is_log(path: str) -> bool:
    """A log `sylla metrics` takes: a run directory or a plain log file."""
    if os.path.isdir(path):
        return is_log_dir(path)
    return os.path.isfile(path) and path.lower().endswith(_LOG_SUFFIXES + (".log",))


def lint_hint(path: str) -> str | None:
    """What to say when ``sylla lint PATH`` is given a log: ``sylla metrics`` reads it."""
    if path != "-" and is_log(path):
        return f"{path} is a log; try sylla metrics {path}"
    return None


def syllabus_given_as_log(path: str) -> str | None:
    """What to say when the log given to ``sylla metrics`` is a syllabus file, else None."""
    from sylla.grammar.syllabus import SUFFIXES  # noqa: PLC0415 - lazy: as below, the package's first module only

    # a log folder, or a file not named as a syllabus (a continual-imitation run's
    # ``training_log.log``): no need to load the syllabus detector (issue 40: 4-6 ms of a
    # 0.18 s run)
    if not os.path.isfile(path) or not path.lower().endswith(SUFFIXES):
        return None
    from sylla.grammar.syllabus.detect import is_syllabus_file  # noqa: PLC0415 - lazy: start-up, the syllabus detector loads only for a log given as a file

    if not is_syllabus_file(path):
        return None
    return (f"{path} is a syllabus, not a log; give it as --syllabus with the log it produced: "
            f"sylla metrics --syllabus {path} LOG")


def folder_of_runs(path: str) -> str | None:
    """What to say when the log given to ``sylla metrics`` is a folder holding several runs
    (``sylla sweep`` computes each), else None. Loads the sweep's run discovery, so only for
    ``sylla metrics``, and only once the folder is known not to be one run itself."""
    if not os.path.isdir(path) or is_log_dir(path):
        return None
    from sylla.metrics.errors import MetricsError  # noqa: PLC0415 - lazy: start-up, sylla lint imports this module too, and loads none of the metrics
    from sylla.metrics.readers import detect  # noqa: PLC0415 - lazy: as above
    from sylla.metrics.sweep.discover import discover  # noqa: PLC0415 - lazy: start-up, the sweep's run discovery loads only for a folder that is not one run

    try:
        detect(Path(path))
        return None  # one log after all (e.g. a root of continual-imitation experiments)
    except MetricsError:
        pass
    try:
        runs = discover(path).runs
    except MetricsError:
        return None
    if not runs:
        return None
    if len(runs) == 1:
        return f"{path} is not a log but holds one run; try sylla metrics {runs[0].path}"
    return (f"{path} holds {len(runs)} runs, not one log; "
            f"sylla sweep {path} computes the metrics of every run in it")
