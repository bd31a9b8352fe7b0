"""Plain reward logs: CSV, TSV, JSON Lines or Parquet.

Columns: ``episode`` (0-based index into the schedule; without it row order is episode order),
the performance column (``reward`` unless ``--perf`` says otherwise) and optionally ``worker`` or
``run``. Rows that share an episode are averaged, because engines log rewards per step. A ``task``
column (and ``block_type``), if present, is kept so alignment can check it against the syllabus.

Without a syllabus these columns are all that places an episode in its block, so every value the
reader cannot place is an error naming its row (issue 38): a name that is missing or holds a
control character (`labels`), a block type other than train or test, a block number that is not
a whole number, an episode logged with two tasks or types, and a hole in the episode numbers or
rows whose order contradicts them (`plain_episodes`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..data import EpisodeLog
from ..errors import MetricsError
from ..progress import Progress
from .common import check_perf, check_types, final_line, locate_non_utf8, read_failure, show
from .labels import KINDS, label_problem, spaced_twin, twin_problem
from .plain_episodes import check_sequence
from .sniff import L2LOGGER_COLUMNS, SUFFIXES, kind_of  # noqa: F401 - re-exported: the readers' public names


def _load(path: Path, kind: str, progress: bool | None = None) -> tuple[pd.DataFrame, int]:
    """The raw table and the offset from a 0-based data row to its 1-based row in the file."""
    try:
        size = path.stat().st_size
        if size == 0:
            raise MetricsError("the file is empty", str(path))
        if kind == "parquet":
            return pd.read_parquet(path), 1
        with Progress(size, f"reading {path.name}", progress) as bar:
            if kind == "jsonl":
                return _read_jsonl(path, bar), 1
            sep = "," if kind == "csv" else "\t"
            try:
                frame = _read_delimited(path, sep, bar)
            except Exception:  # noqa: BLE001 - pyarrow is strict about ragged rows; pandas names the line
                frame = pd.read_csv(path, sep=sep)
            return frame, 2
    except MetricsError:
        raise
    except Exception as exc:  # noqa: BLE001 - every parser error becomes a message
        if kind != "parquet":
            locate_non_utf8(path)
        raise read_failure(path, exc) from None


BLOCK = 1 << 20  # bytes of input per parsed batch


def _read_delimited(path: Path, sep: str, bar: Progress) -> pd.DataFrame:
    """CSV/TSV through pyarrow's streaming reader, advancing the progress bar by the bytes
    consumed after each batch (a one-call read could show no progress at all)."""
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow.csv loads only when used

    batches = []
    with open(path, "rb") as handle:
        reader = pacsv.open_csv(handle, parse_options=pacsv.ParseOptions(delimiter=sep),
                                read_options=pacsv.ReadOptions(block_size=BLOCK))
        # each batch is one block of input; the file position runs ahead (read-ahead)
        for k, batch in enumerate(reader, 1):
            batches.append(batch)
            bar.advance(min(k * BLOCK, bar.total))
        schema = reader.schema
    if any(pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type) for f in schema):
        locate_non_utf8(path)  # pyarrow keeps undecodable text as bytes
    return pa.Table.from_batches(batches, schema=schema).to_pandas()


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _one_value_per_key(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict, refusing a key given twice (Python keeps the last value
    silently, other readers the first)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return value


def _read_jsonl(path: Path, bar: Progress) -> pd.DataFrame:
    records = []
    done = 0
    with open(path, encoding="utf-8", errors="strict") as handle:
        for number, line in enumerate(handle, 1):
            done += len(line)
            if number % 65536 == 0:
                bar.estimate(number, done)
                bar.advance(done)
            if not line.strip():
                continue
            try:
                value = json.loads(line)
                # each key in the line is followed by a colon: as many colons as keys, and no key
                # was given twice; more (a colon inside a value, a nested object, or a repeated
                # key) and the line is read again key by key, which costs half the read if done
                # for every line
                if isinstance(value, dict) and line.count(":") > len(value):
                    value = json.loads(line, object_pairs_hook=_one_value_per_key)
            except json.JSONDecodeError as exc:
                raise MetricsError(f"invalid JSON: {exc.msg}", str(path), number) from None
            except _RepeatedKey as exc:
                raise MetricsError(f"key {exc.key!r} appears more than once in the record; JSON "
                                   "readers disagree on which value counts", str(path), number) from None
            if not isinstance(value, dict):
                raise MetricsError("each line must be a JSON object", str(path), number)
            value["__line"] = number
            records.append(value)
    if not records:
        raise MetricsError("the file has no records", str(path))
    return pd.DataFrame.from_records(records)


#: the columns whose text names a structure (a task, block type, phase, worker or run)
LABELS = ("task", "block_type", "phase", "worker", "run")


def read_plain(path: Path, perf: str = "reward", kind: str | None = None,
               progress: bool | None = None, *, allow_partial: bool = False,
               duplicates: str = "warn", start: int | None = None) -> EpisodeLog:
    """Read one plain log into an `EpisodeLog` (one row per run, worker and episode).

    ``start``: the number each run's and worker's first episode must have (`read_log` asks for
    0); None accepts any, for a log's appended rows read on their own (`sylla watch`)."""
    kind = kind or kind_of(path) or "csv"
    raw, offset = _load(path, kind, progress)
    twice = sorted({str(c) for c in raw.columns[raw.columns.duplicated()]})
    if twice:  # which of the two is the reward? pandas picked neither and failed (a traceback)
        raise MetricsError(f"column {twice[0]!r} appears more than once in the header; which one "
                           "holds the values is anyone's guess", str(path), 1 if kind != "parquet" else None)
    if raw.empty:
        raise MetricsError("the file has a header but no rows", str(path))
    if set(L2LOGGER_COLUMNS) <= set(raw.columns):
        how = ("read it with --log-format l2logger, or give its log's folder" if kind == "tsv"
               else "give the l2logger log's folder (sylla reads l2logger's own tab-separated "
                    "data-log.tsv files)")
        raise MetricsError(f"this file has the columns of an l2logger data file "
                           f"({', '.join(L2LOGGER_COLUMNS)}), which a plain log does not "
                           f"interpret; {how}", str(path))
    rows = raw.pop("__line").to_numpy() if "__line" in raw.columns else np.arange(len(raw)) + offset
    warnings: list[str] = []
    if kind != "parquet":
        cut = final_line(path)
        if cut is not None:
            message = (f"the last line ({cut}) has no final newline: the file may have been cut "
                       "while it was written")
            if not allow_partial:
                raise MetricsError(message + " (use --allow-partial to drop that line)",
                                   str(path), int(rows[-1]))
            warnings.append(f"{path}:{int(rows[-1])}: {message}; that line was dropped")
            raw, rows = raw.iloc[:-1].reset_index(drop=True), rows[:-1]
            if raw.empty:
                raise MetricsError("the file has no complete rows", str(path))
    check_types(raw, [perf, "episode", "worker", "run", "block"], str(path), rows,
                strict_text=kind in ("jsonl", "parquet"), perf=perf)
    values = check_perf(raw, perf, str(path), rows)
    for col in LABELS:
        if col in raw.columns:
            check_labels(raw[col], col, str(path), rows)
    frame = pd.DataFrame({"perf": values, "row": rows})
    frame["run"] = raw["run"].astype(str).to_numpy() if "run" in raw.columns else path.stem
    frame["worker"] = raw["worker"].astype(str).to_numpy() if "worker" in raw.columns else "0"
    for col in ("task", "block_type", "phase"):
        if col in raw.columns:
            frame[col] = raw[col].astype(str).to_numpy()
    if "block" in raw.columns:
        frame["block_num"] = episode_numbers(raw["block"], str(path), rows, "block")
    if "episode" in raw.columns:
        frame["episode"] = episode_numbers(raw["episode"], str(path), rows)
    else:
        frame["episode"] = frame.groupby(["run", "worker"], sort=False).cumcount().to_numpy()
    step = next((c for c in ("step", "sub_task") if c in raw.columns), None)
    if step is not None:
        frame["__step"] = raw[step].astype(str).to_numpy()
    warnings += _check_repeats(frame, str(path), duplicates, step)
    warnings += check_sequence(frame, str(path), allow_partial, start,
                               grouped="run" in raw.columns or "worker" in raw.columns)
    frame = _average_episodes(frame.drop(columns=["__step"], errors="ignore"))
    if "block_type" in frame.columns:
        frame = frame.rename(columns={"block_type": "kind"})
    return EpisodeLog(frame=frame, path=str(path), format=kind, files=[str(path)], perf=perf,
                      warnings=warnings)


#: the largest episode number taken as a number (beyond it float64 loses integers)
MAX_EPISODE = 2**53


def check_labels(column: pd.Series, name: str, file: str, rows: np.ndarray) -> None:
    """Refuse a name the reader cannot place (`labels.label_problem`), a task or other name
    written two ways that differ only in spaces (`labels.spaced_twin`), and a block type other
    than train or test, naming the first such row."""
    if column.dtype.kind in "iub" and name != "block_type":
        return  # whole numbers (or booleans) name things plainly
    try:
        names = pd.unique(column)
    except TypeError:  # unhashable cells (a JSON object or list)
        names = column.to_numpy()
    for value in names:
        problem = label_problem(value)
        if problem is not None:
            raise MetricsError(f"{name} {problem}", file, _first_row(column, value, rows))
        if name == "block_type" and value not in KINDS:
            raise MetricsError(f"block_type must be train or test, got {show(value)}", file,
                               _first_row(column, value, rows))
    texts = [str(v) for v in names]
    twin = spaced_twin(texts, fold=name == "task")
    if twin is not None:
        raise MetricsError(f"{name} {twin_problem(*twin)}", file,
                           _first_row(column.astype(str), twin[0], rows))


def _first_row(column: pd.Series, value: object, rows: np.ndarray) -> int:
    """The file row of ``value``'s first cell in ``column``."""
    if label_problem(value) == "is missing":
        hit = column.isna().to_numpy()
    elif isinstance(value, str) or np.isscalar(value):
        hit = (column == value).to_numpy(dtype=bool)
    else:
        hit = column.map(lambda v: v is value).to_numpy(dtype=bool)
    return int(rows[int(np.argmax(hit))])


def episode_numbers(column: pd.Series, file: str, rows: np.ndarray,
                    name: str = "episode") -> np.ndarray:
    """Episode (or ``block``) numbers as int64, or an error that shows the bad value as a
    person wrote it."""
    episode = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        bad = (~np.isfinite(episode) | (episode < 0) | (episode != np.floor(episode))
               | (episode > MAX_EPISODE))
    if bad.any():
        i = int(np.argmax(bad))
        value = episode[i]
        why = (f"it is too large to be {'an' if name == 'episode' else 'a'} {name} number"
               if np.isfinite(value) and value > MAX_EPISODE
               else "it is not a whole number" if np.isfinite(value) and value >= 0
               else "it is negative" if np.isfinite(value) else "it is not a number")
        raise MetricsError(f"{name} must be a non-negative whole number, got "
                           f"{show(column.iloc[i])} ({why})", file, int(rows[i]))
    return episode.astype(np.int64)


def _check_repeats(frame: pd.DataFrame, file: str, duplicates: str,
                   step: str | None) -> list[str]:
    """Rows that share an episode: per-step rows (a ``step``/``sub_task`` column tells them
    apart) are averaged silently; an episode whose rows disagree on the task, block type, phase
    or block, or that comes back after other episodes (a restarted run appended to the log), is
    an error; other repeats are a warning (or an error with ``--duplicates error``) and are
    averaged."""
    keys = ["run", "worker", "episode"]
    if not frame.duplicated(keys).any():
        return []
    warnings: list[str] = []
    ep = frame["episode"].to_numpy()
    for (_run, _worker), part in frame.groupby(["run", "worker"], sort=False):
        e = part["episode"].to_numpy()
        r = part["row"].to_numpy()
        starts = np.r_[True, e[1:] != e[:-1]]
        first_rows = e[starts]
        seen_again = pd.Series(first_rows).duplicated().to_numpy()
        if seen_again.any():
            j = int(np.flatnonzero(starts)[int(np.argmax(seen_again))])
            first = int(r[int(np.argmax(e == e[j]))])
            raise MetricsError(
                f"episode {e[j]} appears again after episode {e[j - 1]} (first logged at row "
                f"{first}): a restarted run appended to the log? Remove one of the copies",
                file, int(r[j]))
        for col in ("task", "block_type", "phase", "block_num"):
            if col not in part.columns:
                continue
            n_values = part.groupby("episode", sort=False)[col].nunique()
            if (n_values > 1).any():
                bad = int(n_values.index[int(np.argmax(n_values.to_numpy() > 1))])
                rows = part[part.episode == bad]
                other = rows[rows[col] != rows[col].iloc[0]].iloc[0]
                name = "block" if col == "block_num" else col
                raise MetricsError(f"episode {bad} is logged with {name} "
                                   f"{show(rows[col].iloc[0])} and {name} {show(other[col])}",
                                   file, int(other.row))
        if step is not None:
            dup = part.duplicated(["episode", "__step"])
            if not dup.any():
                continue
            i = int(np.argmax(dup.to_numpy()))
        else:
            spread = part.groupby("episode", sort=False)["perf"].agg(["min", "max"])
            differ = spread[spread["min"] != spread["max"]]
            if differ.empty:
                continue
            bad_ep = int(differ.index[0])
            i = int(np.flatnonzero(e == bad_ep)[1])
        message = (f"{file}:{int(r[i])}: episode {e[i]} is logged more than once with different "
                   f"values; its rows are averaged")
        if duplicates == "error":
            raise MetricsError(f"episode {e[i]} is logged more than once with different values "
                               "(--duplicates error)", file, int(r[i]))
        warnings.append(message + " (use --duplicates error to refuse such logs)")
    del ep
    return warnings


def _average_episodes(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean performance per (run, worker, episode); other columns from the episode's first row."""
    keys = ["run", "worker", "episode"]
    if not frame.duplicated(keys).any():
        return frame.sort_values(keys, kind="stable").reset_index(drop=True)
    grouped = frame.groupby(keys, sort=True)
    out = grouped.first().reset_index()
    out["perf"] = grouped["perf"].mean().to_numpy()
    return out
