"""How far a run has come when its reader refuses the log as it stands.

Why: ``sylla watch --check`` judges a log once its schedule is complete: an unreadable row is
an error then (exit 1, with the reader's message naming the row), while a run is being
written it may be a passing state (a block folder with its header alone). A reader's refusal
carries no episode count, so a complete plain log with one unreadable row was never seen to
be complete and the check waited for ever (issue 38). The frames here read only what places an
episode in the schedule (run, worker, episode number), leniently: a row that cannot be parsed
is skipped and undecodable bytes are replaced. They give progress only; the numbers and the
message stay the reader's. (An l2logger log keeps `conformance.raw_l2logger_frame`, which also
names a divergence its reader refuses.)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pandas as pd

from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.learnkit import data_files as learnkit_files
from sylla.metrics.readers.sniff import kind_of

if TYPE_CHECKING:
    from pathlib import Path

#: the columns that place a plain log's row: its run, worker and episode
PLACING = ("run", "worker", "episode")
#: a learnkit data file's episode counter, by shape: September 2020, then February 2020
#: (where ``task`` is the counter and ``class_name`` the task)
COUNTERS = (("exp_num", "exp_num"), ("class_name", "task"))


def placed(frame: pd.DataFrame) -> pd.DataFrame:
    """Episodes 0 to the highest whole, non-negative episode number of each (run, worker),
    one row each: the shape `conformance.check` counts progress on. Up to the highest, not
    only those present: the episode of a row that cannot be parsed is still written (a
    plain log is one file written in order), and a complete log must be seen complete."""
    episode = pd.to_numeric(frame["episode"], errors="coerce")
    keep = episode.notna() & (episode >= 0) & (episode == episode.round())
    known = pd.DataFrame({"run": frame["run"][keep].astype(str),
                          "worker": frame["worker"][keep].astype(str),
                          "episode": episode[keep].astype("int64")})
    parts = [pd.DataFrame({"run": run, "worker": worker, "episode": range(int(top) + 1)})
             for (run, worker), top in known.groupby(["run", "worker"], sort=True)["episode"]
             .max().items()]
    return (pd.concat(parts, ignore_index=True) if parts
            else pd.DataFrame(columns=["run", "worker", "episode"]))


def _delimited(path: "Path", sep: str) -> pd.DataFrame:
    """The placing columns of the rows pandas can split (a row with too many cells is
    skipped); a log with none of them keeps its first column, whose length is the count."""
    options = {"sep": sep, "dtype": str, "keep_default_na": False, "on_bad_lines": "skip",
               "encoding_errors": "replace"}
    raw = pd.read_csv(path, usecols=lambda c: c in PLACING, **options)
    if len(raw.columns):
        return raw
    return pd.read_csv(path, usecols=[0], **options).iloc[:, :0]


def _json_lines(path: "Path") -> pd.DataFrame:
    """Each non-blank line as a record of its placing keys; a line that is no JSON object is
    a row all the same (without an ``episode`` key, row order numbers the episodes)."""
    records = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except ValueError:
                value = None
            records.append({k: value[k] for k in PLACING if k in value}
                           if isinstance(value, dict) else {})
    return pd.DataFrame.from_records(records, index=range(len(records)))


def _column(raw: pd.DataFrame, name: str, default: str) -> pd.Series:
    """Column ``name`` as text, ``default`` where a row lacks it (the reader's default for a
    log without the column)."""
    if name not in raw.columns:
        return pd.Series(default, index=raw.index)
    return raw[name].where(raw[name].notna(), default).astype(str)


def plain_frame(path: "Path", kind: str | None = None) -> pd.DataFrame | None:
    """The episodes of a plain CSV/TSV/JSON Lines log as its parseable rows place them (no
    ``episode`` column: row order, as the reader numbers them), or None (Parquet is read
    whole or not at all)."""
    kind = kind or kind_of(path) or "csv"
    try:
        if kind == "jsonl":
            raw = _json_lines(path)
        elif kind in ("csv", "tsv"):
            raw = _delimited(path, "," if kind == "csv" else "\t")
        else:
            return None
    except (ValueError, OSError):  # no header, no columns: nothing is placed yet
        return None
    if not len(raw):  # no row yet (a frame without columns still has its rows' length)
        return None
    raw = raw.reset_index(drop=True)
    run = _column(raw, "run", "")
    worker = _column(raw, "worker", "0")
    if "episode" in raw.columns:
        episode = raw["episode"]
    else:
        episode = pd.DataFrame({"run": run, "worker": worker}).groupby(
            ["run", "worker"], sort=False).cumcount()
    return placed(pd.DataFrame({"run": run, "worker": worker, "episode": episode}))


def learnkit_frame(path: "Path") -> pd.DataFrame | None:
    """The episodes of a learnkit log: the distinct values of its global episode counter
    over every worker's data files (the workers share one queue, so they are the
    single-worker schedule's episodes), one after another."""
    try:
        files = learnkit_files(path)
    except MetricsError:
        return None
    seen: set[str] = set()
    for file in files:
        try:
            head = pd.read_csv(file, sep="\t", nrows=0, encoding_errors="replace").columns
            column = next((counter for marker, counter in COUNTERS
                           if marker in head and counter in head), None)
            if column is None:
                continue
            values = pd.read_csv(file, sep="\t", dtype=str, keep_default_na=False,
                                 on_bad_lines="skip", encoding_errors="replace",
                                 usecols=[column])[column]
        except (ValueError, OSError):
            continue
        seen.update(values[values.str.fullmatch(r"\d+")].tolist())
    if not seen:
        return None
    return pd.DataFrame({"run": "", "worker": "0", "episode": range(len(seen))})


def refused_frame(path: "Path", fmt: str) -> pd.DataFrame | None:
    """The lenient frame of a plain or learnkit log in format ``fmt`` (None for the others,
    or when no row is placed)."""
    if fmt == "learnkit":
        return learnkit_frame(path) if path.is_dir() else None
    if fmt in ("csv", "tsv", "jsonl") and path.is_file():
        return plain_frame(path, fmt)
    return None
