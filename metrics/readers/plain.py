"""Plain reward logs: CSV, TSV, JSON Lines or Parquet.

Columns: ``episode`` (0-based index into the schedule; without it row order is episode order),
the performance column (``reward`` unless ``--perf`` says otherwise) and optionally ``worker`` or
``run``. Rows that share an episode are averaged, because engines log rewards per step. A ``task``
column (and ``block_type``), if present, is kept so alignment can check it against the syllabus.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from ..progress import Progress
from .common import check_perf, read_failure

SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
            ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def kind_of(path: Path) -> str | None:
    """The plain sub-format of a file from its suffix, or None."""
    return SUFFIXES.get(path.suffix.lower())


def _load(path: Path, kind: str, progress: bool | None = None) -> tuple[pd.DataFrame, int]:
    """The raw table and the offset from a 0-based data row to its 1-based row in the file."""
    try:
        size = path.stat().st_size
        if size == 0:
            raise MetricsError("the file is empty", str(path), exit_code=EXIT_USAGE)
        if kind == "parquet":
            return pd.read_parquet(path), 1
        with Progress(size, f"reading {path.name}", progress) as bar:
            if kind == "jsonl":
                return _read_jsonl(path, bar), 1
            sep = "," if kind == "csv" else "\t"
            try:
                frame = _read_delimited(path, sep, bar)
            except Exception:  # pyarrow is strict about ragged rows; pandas names the line
                frame = pd.read_csv(path, sep=sep)
            return frame, 2
    except MetricsError:
        raise
    except Exception as exc:  # noqa: BLE001 - every parser error becomes a message
        raise read_failure(path, exc) from None


def _read_delimited(path: Path, sep: str, bar: Progress) -> pd.DataFrame:
    """CSV/TSV through pyarrow's streaming reader, advancing the progress bar by the bytes
    consumed after each batch (a one-call read could show no progress at all)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    batches = []
    rows = 0
    with open(path, "rb") as handle:
        reader = pacsv.open_csv(handle, parse_options=pacsv.ParseOptions(delimiter=sep))
        for batch in reader:
            batches.append(batch)
            rows += batch.num_rows
            done = handle.tell()
            bar.estimate(rows, done)
            bar.advance(done)
        schema = reader.schema
    return pa.Table.from_batches(batches, schema=schema).to_pandas()


def _read_jsonl(path: Path, bar: Progress) -> pd.DataFrame:
    records = []
    done = 0
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            done += len(line)
            if number % 65536 == 0:
                bar.estimate(number, done)
                bar.advance(done)
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise MetricsError(f"invalid JSON: {exc.msg}", str(path), number) from None
            if not isinstance(value, dict):
                raise MetricsError("each line must be a JSON object", str(path), number)
            value["__line"] = number
            records.append(value)
    if not records:
        raise MetricsError("the file has no records", str(path), exit_code=EXIT_USAGE)
    return pd.DataFrame.from_records(records)


def read_plain(path: Path, perf: str = "reward", kind: str | None = None,
               progress: bool | None = None, *, allow_partial: bool = False,
               duplicates: str = "warn") -> EpisodeLog:
    """Read one plain log into an `EpisodeLog` (one row per run, worker and episode)."""
    kind = kind or kind_of(path) or "csv"
    raw, offset = _load(path, kind, progress)
    if raw.empty:
        raise MetricsError("the file has a header but no rows", str(path), exit_code=EXIT_USAGE)
    rows = raw.pop("__line").to_numpy() if "__line" in raw.columns else np.arange(len(raw)) + offset
    values = check_perf(raw, perf, str(path), rows)
    frame = pd.DataFrame({"perf": values, "row": rows})
    frame["run"] = raw["run"].astype(str).to_numpy() if "run" in raw.columns else path.stem
    frame["worker"] = raw["worker"].astype(str).to_numpy() if "worker" in raw.columns else "0"
    for col in ("task", "block_type", "phase"):
        if col in raw.columns:
            frame[col] = raw[col].astype(str).to_numpy()
    if "block" in raw.columns:
        frame["block_num"] = pd.to_numeric(raw["block"], errors="coerce").fillna(-1).to_numpy()
    if "episode" in raw.columns:
        episode = pd.to_numeric(raw["episode"], errors="coerce").to_numpy()
        bad = ~np.isfinite(episode) | (episode < 0) | (episode != np.floor(episode))
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricsError(
                f"episode must be a non-negative integer, got {raw['episode'].iloc[i]!r}",
                str(path), int(rows[i]))
        frame["episode"] = episode.astype(np.int64)
    else:
        frame["episode"] = frame.groupby(["run", "worker"], sort=False).cumcount().to_numpy()
    frame = _average_episodes(frame)
    if "block_type" in frame.columns:
        frame = frame.rename(columns={"block_type": "kind"})
    return EpisodeLog(frame=frame, path=str(path), format=kind, files=[str(path)], perf=perf)


def _average_episodes(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean performance per (run, worker, episode); other columns from the episode's first row."""
    keys = ["run", "worker", "episode"]
    if not frame.duplicated(keys).any():
        return frame.sort_values(keys, kind="stable").reset_index(drop=True)
    grouped = frame.groupby(keys, sort=True)
    out = grouped.first().reset_index()
    out["perf"] = grouped["perf"].mean().to_numpy()
    return out
