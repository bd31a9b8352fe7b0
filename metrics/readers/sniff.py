"""Which reader a path needs, told from names and folder layout alone.

Kept apart from the readers (which import numpy, pandas and pyarrow) so that choosing one costs no
import: ``sylla metrics`` on a continual-imitation log never loads pandas (issue 24)."""

from __future__ import annotations

import re
from pathlib import Path

#: learnkit's worker folders
WORKER = re.compile(r"worker-env-(\d+)$")
#: plain log suffixes -> sub-format
SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
            ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def is_l2logger(path: Path) -> bool:
    return path.is_dir() and (path / "logger_info.json").is_file()


def is_learnkit(path: Path) -> bool:
    return path.is_dir() and any(p.is_dir() and WORKER.match(p.name) for p in path.iterdir())


def kind_of(path: Path) -> str | None:
    """The plain sub-format of a file from its suffix, or None."""
    return SUFFIXES.get(path.suffix.lower())
