"""l2logger directories, log format 1.0 and 1.1.

Layout: ``logger_info.json`` (``metrics_columns``, ``log_format_version``), ``scenario_info.json``
and ``<worker>/<block_num>-<train|test>/data-log.tsv``. Format 1.1 adds ``block_subtype``
(wake/sleep); 1.0 logs get ``wake`` as l2logger's own reader does. Only ``complete`` experiences
count, as in l2metrics. Files are read with pyarrow's multi-threaded CSV reader, column-pruned.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from ..memory import after_reads
from ..progress import Progress
from .arrow_pool import give_back
from .codes import Codes
from .common import LARGEST, final_line, in_range, locate_non_utf8, perf_values, read_failure, too_large
from .l2logger_files import BLOCK, FOLDER, STARTS_AT_ONE, STRINGS, THREADS, csv_options, group_means, natural_order
from .l2logger_files import header as l2logger_header
from .labels import KINDS, SUBTYPES, label_problem, spaced_twin, twin_problem
from .sniff import is_l2logger

if TYPE_CHECKING:
    import pyarrow as pa


def read_info(path: Path) -> dict:
    info_path = path / "logger_info.json"
    try:
        info = json.loads(info_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MetricsError("not an l2logger directory (no logger_info.json)", str(path),
                           exit_code=EXIT_USAGE) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MetricsError(f"invalid JSON: {exc}", str(info_path)) from None
    if not isinstance(info, dict) or not isinstance(info.get("metrics_columns"), list):
        raise MetricsError("logger_info.json must have a 'metrics_columns' list", str(info_path))
    version = str(info.get("log_format_version", "1.0"))
    if version not in ("1.0", "1.1"):
        raise MetricsError(f"unsupported log_format_version {version!r} (1.0 and 1.1 are)",
                           str(info_path))
    return info


def data_files(path: Path) -> list[Path]:
    files = sorted(path.rglob("data-log.tsv"))
    if not files:
        raise MetricsError("no <worker>/<block>-<type>/data-log.tsv files", str(path),
                           exit_code=EXIT_USAGE)
    return files




def _read_file(file: Path, perf: str, subtype: bool, as_text: bool = False,
               on_bytes: "Callable[[int], None] | None" = None) -> "pa.Table":
    """One data file as an Arrow table: numbers typed, strings dictionary-encoded (a block
    file repeats the same few strings on every row, so codes are all we keep)."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    options = csv_options(file, perf, subtype, as_text)
    try:
        if on_bytes is None:
            table = pacsv.read_csv(file, **options)
        else:  # batch by batch, so a progress bar moves inside a big file
            options["read_options"] = pacsv.ReadOptions(use_threads=THREADS, block_size=BLOCK)
            size = file.stat().st_size
            with open(file, "rb") as handle:
                reader = pacsv.open_csv(handle, **options)
                batches = []
                # each batch is one block of input (the file position runs ahead)
                for k, batch in enumerate(reader, 1):
                    batches.append(batch)
                    on_bytes(min(k * BLOCK, size))
                table = pa.Table.from_batches(batches, schema=reader.schema)
                del batches
    except Exception as exc:  # noqa: BLE001 - any pyarrow failure becomes a MetricsError naming the file and the bad value
        if not as_text:
            # pyarrow names an undecodable cell by its column's index; the line and byte say more
            locate_non_utf8(file)
            _locate_bad_value(file, perf, subtype)
        raise read_failure(file, exc) from None
    if table.num_rows == 0:
        raise MetricsError("the file has a header but no rows", str(file))
    return table



def _locate_bad_value(file: Path, perf: str, subtype: bool) -> None:
    """Re-read a file that failed typed parsing as text, to name the row and the value."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24): only a bad file needs it

    table = _read_file(file, perf, subtype, as_text=True)
    for col in ("block_num", "exp_num"):
        values = pd.to_numeric(pd.Series(table.column(col).to_pylist()), errors="coerce")
        values = values.to_numpy(dtype=float, na_value=np.nan)
        bad = ~np.isfinite(values) | (values < 0) | (values != np.floor(values))
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricsError(f"{col} must be a non-negative integer, got "
                               f"{table.column(col)[i].as_py()!r}", str(file), i + 2)
    values, problem = perf_values(pd.Series(table.column(perf).to_pylist(), dtype=object))
    if problem is not None:
        i, what = problem
        raise MetricsError(f"{perf} {what}", str(file), i + 2)


def _narrow(values: np.ndarray) -> np.ndarray:
    """int32 where the values fit (block and experience numbers always do in practice): the
    columns kept for a 10M-episode log are most of sylla's peak memory."""
    if values.size and (values.max() > np.iinfo(np.int32).max or values.min() < np.iinfo(np.int32).min):
        return values
    return values.astype(np.int32)


def _code_type(n: int) -> type:
    return np.int8 if n < 127 else np.int16 if n < 32_000 else np.int32


def read_l2logger(path: Path, perf: str | None = None, progress: bool | None = None, *,
                  allow_partial: bool = False, stream: bool = False) -> EpisodeLog:
    """Read every data file, keep complete experiences, one row per (worker, exp_num).

    ``stream=True`` reads a log in l2logger's regular shape block by block into spill files,
    already split into regimes (`l2logger_stream`; `sylla.metrics.align.align` fits them to a
    syllabus, or reads the log again whole where they disagree); any other log is read
    whole."""
    info = read_info(path)
    if perf is None:
        if not info["metrics_columns"]:
            raise MetricsError("metrics_columns is empty; name the performance column with "
                               "--perf", str(path / "logger_info.json"))
        perf = str(info["metrics_columns"][0])
    if perf not in info["metrics_columns"]:
        raise MetricsError(
            f"performance column {perf!r} is not among metrics_columns "
            f"{info['metrics_columns']}; choose one with --perf",
            str(path / "logger_info.json"))
    subtype = str(info.get("log_format_version", "1.0")) == "1.1"
    files = sorted(data_files(path), key=natural_order)
    sizes = [f.stat().st_size for f in files]
    warnings: list[str] = []
    _check_folders(files, path, allow_partial, warnings)
    if stream and not warnings:
        from .l2logger_stream import Irregular, read_regular  # noqa: PLC0415 - lazy: the streaming reader loads only for a log too large to read whole

        try:
            return read_regular(path, perf, subtype, files, sizes, progress)
        except Irregular:
            pass  # the whole-log reader words what is irregular, or reads it
    codes = {c: Codes(fold=c == "task_name") for c in STRINGS}
    arrays = _gather(files, sizes, perf, subtype, codes, f"reading {path.name}", progress,
                     allow_partial, warnings)
    log = _to_episodes(arrays, codes, perf, path, [str(f) for f in files], subtype,
                       allow_partial, warnings)
    warnings.extend(codes["task_name"].warnings())
    log.warnings = warnings
    return log



def _gather(files: list[Path], sizes: list[int], perf: str, subtype: bool,
            codes: dict[str, "Codes"], title: str, progress: bool | None,
            allow_partial: bool, warnings: list[str],
            folders: bool = True) -> dict[str, np.ndarray]:
    """Every row of ``files`` as columns (strings as global codes, `Codes`); ``folders``:
    check each file's rows against its ``<n>-<type>`` folder."""
    cols: dict[str, list[np.ndarray]] = {c: [] for c in
                                         ("block_num", "exp", "perf", "row", "file", *STRINGS)}
    read = rows = 0
    try:
        with Progress(sum(sizes), title, progress) as bar:
            for index, (file, size) in enumerate(zip(files, sizes)):
                table = _read_file(file, perf, subtype,
                                   on_bytes=functools.partial(_advance, bar, read) if bar.enabled else None)
                table = _cut_last_line(table, file, allow_partial, warnings)
                n = table.num_rows
                for c in ("block_num", "exp_num"):
                    if table.column(c).null_count:
                        i = next(k for k, v in enumerate(table.column(c).is_null().to_pylist()) if v)
                        raise MetricsError(f"{c} is empty", str(file), i + 2)
                if folders:
                    _check_against_folder(table, file)
                cols["block_num"].append(_narrow(table.column("block_num").to_numpy()))
                cols["exp"].append(_narrow(table.column("exp_num").to_numpy()))
                cols["perf"].append(table.column(perf).to_numpy())
                cols["row"].append(np.arange(2, n + 2, dtype=np.int32))
                cols["file"].append(np.full(n, index, dtype=np.int32))
                for c in STRINGS:
                    if c in table.column_names:
                        cols[c].append(codes[c].of_dictionary(table.column(c)))
                del table
                read += size
                rows += n
                bar.estimate(rows, read)
                bar.advance(read)
    finally:
        after_reads(give_back)  # the freed parse buffers' pages (`arrow_pool`)
    arrays: dict[str, np.ndarray] = {}
    for c in list(cols):
        parts = cols.pop(c)
        if parts:
            arrays[c] = np.concatenate(parts)
            if c in STRINGS:
                arrays[c] = arrays[c].astype(_code_type(len(codes[c].names)))
        del parts
    return arrays


def _cut_last_line(table: "pa.Table", file: Path, allow_partial: bool,
                   warnings: list[str]) -> "pa.Table":
    """``table`` without its last row when the file's last line has no newline: l2logger
    writes whole lines, so the file was cut while it was written, and that row may hold half a
    number (``1.946787`` cut to ``1.94``). An error; ``--allow-partial`` drops the row with a
    warning, as the plain reader does."""
    line = final_line(file)
    if line is None:
        return table
    message = (f"the last line ({line}) has no final newline: the file may have been cut "
               "while it was written")
    if not allow_partial:
        raise MetricsError(message + " (use --allow-partial to drop that line)", str(file), line)
    warnings.append(f"{file}:{line}: {message}; that line was dropped")
    if table.num_rows <= 1:
        raise MetricsError("the file has no complete rows", str(file))
    return table.slice(0, table.num_rows - 1)


def read_l2logger_file(file: Path, perf: str | None = None, progress: bool | None = None, *,
                       allow_partial: bool = False) -> EpisodeLog:
    """One l2logger data file read on its own (a ``data-log.tsv`` given in place of its log's
    folder, as l2logger's examples ship one): its rows are read as the whole-log reader reads
    a log's, without the folder checks. l2logger counts experiences across the whole log, so a
    file whose experiences do not start at 0 (or 1) is a later block of a log whose earlier
    blocks are elsewhere: an error that says so and names the log's folder where the file
    still lies in it; ``--allow-partial`` reads the file alone, with a warning. Without
    ``--perf`` the performance column is the log's first ``metrics_columns`` entry where the
    file lies in its log, else ``reward``."""
    root = _log_root(file)
    if perf is None:
        columns = read_info(root)["metrics_columns"] if root is not None else []
        perf = str(columns[0]) if columns else "reward"
    header = [c.lstrip("\ufeff") for c in l2logger_header(file)]
    if perf not in header:
        extra = [c for c in header if c not in STRINGS + ("block_num", "exp_num", "timestamp")]
        raise MetricsError(f"no performance column {perf!r} (other columns: "
                           f"{', '.join(extra) or 'none'}); choose one with --perf", str(file))
    subtype = "block_subtype" in header
    codes = {c: Codes(fold=c == "task_name") for c in STRINGS}
    warnings: list[str] = []
    arrays = _gather([file], [file.stat().st_size], perf, subtype, codes,
                     f"reading {file.name}", progress, allow_partial, warnings, folders=False)
    first = int(arrays["exp"].min())
    where = f" (its log's folder: {root})" if root is not None else ""
    if first > 1:
        blocks = sorted(set(arrays["block_num"].tolist()))
        message = (f"this file is part of an l2logger log: it holds block(s) "
                   f"{', '.join(map(str, blocks))}, whose experiences start at exp_num {first}, "
                   f"and l2logger numbers experiences across the whole log, so its earlier "
                   f"blocks are in other files{where}")
        if not allow_partial:
            raise MetricsError(message + "; give the log's folder, or use --allow-partial to "
                               "compute this file alone", str(file))
        warnings.append(f"{file}: {message}; the metrics are of this file alone")
    elif root is not None:
        warnings.append(f"{file}: this file is one block of the l2logger log {root}; the "
                        "metrics are of this file alone (give that folder for the whole log)")
    log = _to_episodes(arrays, codes, perf, file, [str(file)], subtype, allow_partial,
                       warnings)
    log.warnings = warnings + codes["task_name"].warnings()
    return log


def _log_root(file: Path) -> Path | None:
    """The l2logger log folder a data file lies in (``<log>/<worker>/<n>-<type>/``), if any."""
    root = file.resolve().parent.parent.parent
    return root if FOLDER.match(file.resolve().parent.name) and is_l2logger(root) else None


def _check_folders(files: list[Path], path: Path, allow_partial: bool,
                   warnings: list[str]) -> None:
    """Block folders are ``<n>-<train|test>`` numbered 0, 1, 2, ... without gaps: a gap means a
    block folder was deleted. Workers share one block counter, and a worker that ran no
    experience of a block has no folder for it, so with several workers the gaps are looked
    for in all their folders together."""
    by_worker: dict[Path, list[int]] = {}
    for file in files:
        folder = FOLDER.match(file.parent.name)
        if folder is None:
            raise MetricsError("block folder name must be <block number>-<train|test>",
                               str(file.parent))
        by_worker.setdefault(file.parent.parent, []).append(int(folder.group(1)))
    if len(by_worker) > 1:
        union = sorted({n for numbers in by_worker.values() for n in numbers})
        by_worker = {path: union}
    for worker, numbers in by_worker.items():
        numbers = sorted(numbers)
        expected = list(range(len(numbers)))
        if numbers != expected:
            missing = sorted(set(range(max(numbers) + 1)) - set(numbers))
            message = (f"block folder(s) {', '.join(map(str, missing))} missing: the blocks "
                       f"jump in {worker.name}")
            if not allow_partial:
                raise MetricsError(message + " (use --allow-partial to compute without them)",
                                   str(worker))
            warnings.append(f"{worker}: {message}; metrics use the blocks present")


def _check_against_folder(table: "pa.Table", file: Path) -> None:
    """The rows of ``<n>-<type>/data-log.tsv`` must say block ``n`` and type ``type``."""
    import pyarrow.compute as pc  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    folder = FOLDER.match(file.parent.name)
    assert folder is not None
    number, kind = int(folder.group(1)), folder.group(2)
    block = table.column("block_num")
    bad = pc.not_equal(block, number)
    if pc.any(bad).as_py():
        i = int(pc.index(bad, True).as_py())
        raise MetricsError(f"block_num is {block[i].as_py()} inside folder {file.parent.name}",
                           str(file), i + 2)
    types = table.column("block_type").cast("string")
    bad = pc.not_equal(types, kind)
    if pc.any(bad).as_py():
        i = int(pc.index(bad, True).as_py())
        raise MetricsError(f"block_type is {types[i].as_py()!r} inside folder "
                           f"{file.parent.name}", str(file), i + 2)


def _check_experiences(a: dict[str, np.ndarray], codes: dict[str, "Codes"], files: list[str],
                       fail: Callable[[np.ndarray, str], None], allow_partial: bool, warnings: list[str]) -> None:
    """Experience numbers: one block and task each, rows of one experience together, no
    numbers missing; a block's tasks each in one stretch (a task that comes back inside a
    block means rows were moved or files spliced)."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24): the whole-log reader only

    exp, block, task = a["exp"], a["block_num"], a["task_name"]
    worker = a["worker_id"]
    single = len(codes["worker_id"].names) == 1
    # the usual log: one worker, experiences in file order; no sort is needed then
    ordered = single and bool(np.all(exp[1:] >= exp[:-1]))
    order = (np.arange(exp.size) if ordered
             else np.lexsort((np.arange(exp.size), exp, worker)))
    e, b, t, w = ((exp, block, task, worker) if ordered
                  else (exp[order], block[order], task[order], worker[order]))
    same = (e[1:] == e[:-1]) & (w[1:] == w[:-1])
    clash = same & ((b[1:] != b[:-1]) | (t[1:] != t[:-1]))
    if clash.any():
        j = int(order[int(np.argmax(clash)) + 1])
        fail(np.arange(exp.size) == j, f"exp_num {int(exp[j])} is logged again in another "
                                       "block or task")
    # the workers of a log share one experience counter: a number two workers logged is one
    # worker's experience renumbered (or a run appended to another's log)
    if not single:
        by_exp = np.lexsort((worker, exp))
        shared = (exp[by_exp][1:] == exp[by_exp][:-1]) & (worker[by_exp][1:] != worker[by_exp][:-1])
        if shared.any():
            k = int(np.argmax(shared))
            i, j = int(by_exp[k]), int(by_exp[k + 1])
            names = codes["worker_id"].names
            fail(np.arange(exp.size) == j,
                 f"exp_num {int(exp[j])} is logged by worker {names[int(worker[i])]!r} and "
                 f"worker {names[int(worker[j])]!r}: l2logger's workers share one experience "
                 "counter")
    # the records of one experience are written together; one that comes back after other
    # experiences is a second copy (a restarted or appended run), not another record of it
    apart = np.zeros(0, bool) if ordered else same & (order[1:] != order[:-1] + 1)
    if apart.any():
        k = int(np.argmax(apart))
        j = int(order[k + 1])
        first = int(order[k])
        fail(np.arange(exp.size) == j, f"exp_num {int(exp[j])} is logged again after other "
                                       f"experiences (earlier at {files[int(a['file'][first])]}:"
                                       f"{int(a['row'][first])}): a restarted or appended run?")
    # gaps: the experience numbers of all workers together run from 0 (or 1, see
    # `STARTS_AT_ONE`) without holes
    origin = 1 if exp.size and int(exp.min()) == 1 else 0
    if ordered:
        holes = bool(exp.size) and (exp[0] != origin or bool(np.any(np.diff(exp) > 1)))
        present = e[np.r_[True, e[1:] != e[:-1]]] if holes else exp[:0]
    else:
        present = np.unique(exp)
        holes = bool(present.size) and (present[0] != origin
                                         or present[-1] != origin + present.size - 1)
    if origin and not holes:
        warnings.append(STARTS_AT_ONE)
    if holes:
        # from the steps between the numbers present, never the full range: one stray number
        # near 2^63 is one hole, not an array of that length
        ext = np.r_[origin - 1, present].astype(np.int64)
        steps = np.diff(ext)
        gaps = np.flatnonzero(steps > 1)
        count = int((steps[gaps] - 1).sum())
        first = int(ext[gaps[0]]) + 1
        message = (f"{count} experience(s) missing from the log (exp_num {first}"
                   + (f"-{int(present[gaps[-1]]) - 1}" if count > 1 else "") + ")")
        after = exp > first
        if not allow_partial:
            if after.any():
                nxt = int(np.min(exp[after]))
                fail(exp == nxt, message + f"; the log jumps from {first - 1} to {nxt} here "
                                 "(use --allow-partial to compute without them)")
            raise MetricsError(message, None)
        warnings.append(message + "; metrics use the experiences present")
    # a task returning inside a block (A, B, A)
    if codes["task_name"].names and len(codes["task_name"].names) > 1:
        if ordered and bool(np.all(block[1:] >= block[:-1])):
            order = np.arange(exp.size)
            b, t, w = block, task, worker
        else:
            order = np.lexsort((exp, block, worker))
            b, t, w = block[order], task[order], worker[order]
        change = np.r_[True, (b[1:] != b[:-1]) | (t[1:] != t[:-1]) | (w[1:] != w[:-1])]
        keys = pd.DataFrame({"w": w[change], "b": b[change], "t": t[change]})
        again = keys.duplicated().to_numpy()
        if again.any():
            starts = np.flatnonzero(change)
            k = int(np.argmax(again))  # > 0: an earlier segment of the same worker and block has this task
            j = int(order[int(starts[k])])
            names = codes["task_name"].names
            fail(np.arange(exp.size) == j, f"task {names[int(task[j])]!r}"
                                           f" comes back in the middle of block "
                                           f"{int(block[j])} after task {names[int(t[int(starts[k - 1])])]!r}")


def _check_names(a: dict[str, np.ndarray], codes: dict[str, "Codes"], subtype: bool,
                 fail: Callable[[np.ndarray, str], None]) -> None:
    """Task names, worker ids and subtypes the reader can place (`labels`): a NUL or other
    control character, an empty name, or two spellings that differ only in spaces would make
    a task, worker or block of their own. l2logger's own reader refuses a subtype other than
    wake or sleep (``l2logger.util.validate_log``), and so does sylla."""
    for column in ("task_name", "worker_id") + (("block_subtype",) if subtype else ()):
        names = codes[column].names
        for code, name in enumerate(names):
            problem = label_problem(name)
            if problem is None and column == "block_subtype" and name not in SUBTYPES:
                problem = f"must be wake or sleep, got {name!r}"
            if problem is not None:
                fail(a[column] == code, f"{column} {problem}")
        twin = spaced_twin(names, fold=column == "task_name")
        if twin is not None:
            fail(a[column] == names.index(twin[0]), f"{column} {twin_problem(*twin)}")


def _to_episodes(a: dict[str, np.ndarray], codes: dict[str, Codes], perf: str, path: Path,
                 files: list[str], subtype: bool, allow_partial: bool = False,
                 warnings: list[str] | None = None) -> EpisodeLog:
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24): the whole-log reader only

    def fail(mask: np.ndarray, message: str) -> None:
        i = int(np.argmax(mask))
        raise MetricsError(message, files[int(a["file"][i])], int(a["row"][i]))

    status = codes["exp_status"].names
    bad_status = [s for s in status if s not in ("complete", "incomplete")]
    if bad_status:
        code = status.index(bad_status[0])
        fail(a["exp_status"] == code, f"exp_status must be complete or incomplete, got "
                                      f"{bad_status[0]!r}")
    kinds = codes["block_type"].names
    bad_kind = [k for k in kinds if k not in KINDS]
    if bad_kind:
        fail(a["block_type"] == kinds.index(bad_kind[0]),
             f"block_type must be train or test, got {bad_kind[0]!r}")
    _check_names(a, codes, subtype, fail)
    for col in ("block_num", "exp"):
        if (a[col] < 0).any():
            fail(a[col] < 0, f"{'exp_num' if col == 'exp' else col} must be non-negative")
    _check_experiences(a, codes, files, fail, allow_partial,
                       warnings if warnings is not None else [])
    if "complete" not in status:
        raise MetricsError("no complete experiences in the log", str(path))
    keep = a["exp_status"] == status.index("complete")
    if not keep.all():
        a = {c: v[keep] for c, v in a.items()}
    if not in_range(a["perf"]):
        bad = ~(np.abs(a["perf"]) <= LARGEST)
        i = int(np.argmax(bad))
        value = a["perf"][i]
        what = ("is missing or NaN" if np.isnan(value) else f"is not finite: {value}" if not np.isfinite(value)
                else too_large(f"{value:g}"))
        fail(bad, f"{perf} {what}")
    exp, block_num = a["exp"], a["block_num"]
    ordered = bool(np.all((exp[1:] > exp[:-1]) | ((exp[1:] == exp[:-1])
                                                  & (block_num[1:] >= block_num[:-1]))))
    if not ordered:
        order = np.lexsort((block_num, exp))
        a = {c: v[order] for c, v in a.items()}
    frame = pd.DataFrame({
        "exp": a["exp"], "block_num": a["block_num"], "perf": a["perf"], "row": a["row"],
        "file": a["file"],
        "worker": pd.Categorical.from_codes(a["worker_id"], codes["worker_id"].names),
        "kind": pd.Categorical.from_codes(a["block_type"], codes["block_type"].names),
        "task": pd.Categorical.from_codes(a["task_name"], codes["task_name"].names),
        "params": pd.Categorical.from_codes(a["task_params"], codes["task_params"].names),
    }, copy=False)
    frame["subtype"] = (pd.Categorical.from_codes(a["block_subtype"],
                                                  codes["block_subtype"].names)
                        if subtype else pd.Categorical.from_codes(
                            np.zeros(len(frame), dtype=np.int8), ["wake"]))
    exp = frame["exp"].to_numpy()
    row_perf = None
    single_worker = len(codes["worker_id"].names) == 1
    sorted_single = single_worker and bool(np.all(exp[1:] >= exp[:-1]))
    repeated = (bool(np.any(exp[1:] == exp[:-1])) if sorted_single
                else bool(frame.duplicated(["worker", "exp"]).any()))
    if repeated:
        keys = ["worker", "exp"]
        values = frame["perf"].to_numpy()
        if sorted_single:
            # rows of an experience are adjacent: reduce by run boundaries, no hashing
            starts = np.flatnonzero(np.r_[True, exp[1:] != exp[:-1]])
            row_perf = values
            nrows = np.diff(np.r_[starts, exp.size])
            means = np.add.reduceat(values, starts) / nrows
            frame = frame.iloc[starts].reset_index(drop=True)
            frame["perf"] = means
        else:
            ids = frame.groupby(keys, sort=False, observed=True).ngroup().to_numpy()
            order = np.argsort(ids, kind="stable")
            row_perf = values[order]
            nrows = np.bincount(ids)
            frame = frame.drop_duplicates(keys, keep="first", ignore_index=True)
            # the streaming reader's mean (`group_means`), so both give the same bits whatever
            # the pandas version (pandas 2's groupby mean adds with Kahan compensation)
            frame["perf"] = group_means(row_perf, (np.cumsum(nrows) - nrows).astype(np.int64))
        frame["nrows"] = nrows.astype(np.int32)
        frame["row_start"] = (np.cumsum(nrows) - nrows).astype(np.int64)
    frame["run"] = pd.Categorical.from_codes(np.zeros(len(frame), dtype=np.int8), [path.name])
    if single_worker:
        frame["episode"] = np.arange(len(frame))
    else:
        frame["episode"] = frame.groupby("worker", sort=False, observed=True).cumcount().to_numpy()
    return EpisodeLog(frame=frame, path=str(path), format="l2logger", files=files, perf=perf,
                      row_perf=row_perf)


def _advance(bar: Progress, base: int, done: int) -> None:
    """The bar at ``done`` bytes into a file that starts ``base`` bytes into the log."""
    bar.advance(base + done)
