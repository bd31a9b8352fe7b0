"""Which reader a path needs, told from names and folder layout alone.

Kept apart from the readers (which import numpy, pandas and pyarrow) so that choosing one costs no
import: ``sylla metrics`` on a continual-imitation log never loads pandas (issue 24)."""

from __future__ import annotations

import re
from pathlib import Path

#: learnkit's worker folders
WORKER = re.compile(r"worker-env-(\d+)$")
#: the columns every l2logger data file has (l2logger's ``util.validate_log`` standard fields
#: but ``timestamp``, which no reader needs)
L2LOGGER_COLUMNS = ("block_num", "exp_num", "worker_id", "block_type", "task_name", "task_params",
                    "exp_status")
#: a continual-imitation run's log file (`iscil`)
ISCIL_LOG = "training_log.log"
#: plain log suffixes -> sub-format
SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
            ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def is_l2logger(path: Path) -> bool:
    return path.is_dir() and (path / "logger_info.json").is_file()


def is_l2logger_file(path: Path) -> bool:
    """A file whose first line names every column of an l2logger data file (``data-log.tsv``)
    as l2logger writes them: tab-separated. Read on its own, such a file is one or more blocks
    of an l2logger log, not a plain log (issue 38)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 16)
    except OSError:
        return False
    names = first.decode("utf-8", "replace").lstrip("\ufeff").rstrip("\r\n").split("\t")
    return set(L2LOGGER_COLUMNS) <= set(names)


def is_learnkit(path: Path) -> bool:
    return path.is_dir() and any(p.is_dir() and WORKER.match(p.name) for p in path.iterdir())


def kind_of(path: Path) -> str | None:
    """The plain sub-format of a file from its suffix, or None."""
    return SUFFIXES.get(path.suffix.lower())
