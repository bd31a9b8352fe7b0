"""learnkit-era directories, in the two shapes learnkit really wrote (l2metrics' own examples).

Layout, both shapes: ``<run>/worker-env-K/<n>-<phase number>_<train|test>/<task>/`` holding
``data-log.tsv`` and ``block-report.tsv``. The phase lives in the folder name; one test folder
holds one task folder per task tested.

- **September 2020** (l2metrics ``examples/ant_example``): ``data-log.tsv`` has ``block_num
  regime_num exp_num status timestamp seed source agent_dir task_name sub_task agent_pos
  observation_space reward worker steps action_space``; ``block-report.tsv`` has ``block_num
  regime_num block_type worker task_name params``. ``exp_num`` is the episode's index in the
  whole syllabus, ``regime_num`` the block (one task, one parameter set).
- **February 2020** (l2metrics ``examples/syllabus_ANT_harder``): ``data-log.tsv`` has
  ``timestamp phase worker class_name block seed task sub_task steps termination_status source
  agent_dir agent_pos reward action_space observation_space``; ``block-report.tsv`` has ``phase
  worker class_name block params``. Here ``task`` is the episode counter (its index in the whole
  syllabus, shared by all workers), not a task; the task is ``class_name``.

Workers took episodes from one shared queue, so the union of the workers' episodes, ordered by
that global counter, is the single-worker schedule. An episode may span several rows (its
``sub_task`` steps); they are averaged, as the seed text asks. Columns that structure the log are
checked against the folder names; a structural column that neither shape defines is an error
naming it. Other columns (observations, seeds, timings) describe the environment and are not read.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from .common import check_perf, read_failure
from .l2logger_files import natural_order
from .sniff import WORKER, is_learnkit  # noqa: F401 - re-exported

FOLDER = re.compile(r"^(\d+)-(\d+)_(train|test)$")

#: shape -> (episode column, block column, task column, status column, phase column or None)
SHAPES = {
    "sep2020": ("exp_num", "regime_num", "task_name", "status", None),
    "feb2020": ("task", "block", "class_name", "termination_status", "phase"),
}
#: columns that give the log its structure; each shape interprets only its own
STRUCTURAL = {"block_num", "regime_num", "exp_num", "status", "task_name", "phase", "block",
              "class_name", "task", "termination_status", "episode", "block_type", "run"}
SHAPE_COLUMNS = {
    "sep2020": {"block_num", "regime_num", "exp_num", "status", "task_name"},
    "feb2020": {"phase", "block", "class_name", "task", "termination_status"},
}
DONE = "DONE"
#: an episode cut at the step limit; l2metrics of 2020 read it as any other (fab1475's
#: ``util.read_log_data`` keeps every row whatever its status), and so does sylla, with a note
NOT_DONE = "NOT_DONE"


def _shape(header: list[str], file: Path) -> str:
    present = set(header) & STRUCTURAL
    for shape, needed in SHAPE_COLUMNS.items():
        if needed <= present:
            extra = sorted(present - needed)
            if extra:
                raise MetricsError(
                    f"column(s) {', '.join(extra)} cannot be interpreted in a learnkit "
                    f"{'September' if shape == 'sep2020' else 'February'} 2020 log", str(file))
            return shape
    best = max(SHAPE_COLUMNS, key=lambda s: len(SHAPE_COLUMNS[s] & present))
    missing = sorted(SHAPE_COLUMNS[best] - present)
    unknown = sorted(present - SHAPE_COLUMNS[best])
    detail = f"missing column(s) {', '.join(missing)}"
    if unknown:
        detail += f"; column(s) {', '.join(unknown)} cannot be interpreted"
    raise MetricsError(f"not a learnkit data log in either known shape ({detail})", str(file))


def _read_tsv(file: Path, data: bytes | None = None) -> pd.DataFrame:
    """The file as text columns; ``data``: its header and some of its later lines instead (an
    error then names lines of ``data``, so `LearnkitTail` reads the whole file to word it)."""
    try:
        if data is None:
            if file.stat().st_size == 0:
                raise MetricsError("the file is empty", str(file))
            with open(file, "rb") as handle:
                data = handle.read()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise MetricsError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", str(file),
                               line) from None
        frame = pd.read_csv(io.BytesIO(data), sep="\t", dtype=str, keep_default_na=False)
    except MetricsError:
        raise
    except Exception as exc:  # noqa: BLE001 - any parser failure becomes a MetricsError naming the file and line
        raise read_failure(file, exc) from None
    if frame.empty:
        raise MetricsError("the file has a header but no rows", str(file))
    return frame


def _integers(raw: pd.DataFrame, column: str, file: Path, rows: np.ndarray,
              meaning: str) -> np.ndarray:
    text = raw[column]
    ok = text.str.fullmatch(r"\d+").to_numpy()
    if not ok.all():
        i = int(np.argmax(~ok))
        raise MetricsError(f"column {column!r} ({meaning}) must hold non-negative integers, got "
                           f"{text.iloc[i]!r}", str(file), int(rows[i]))
    return text.astype(np.int64).to_numpy()


def _check_equal(values: pd.Series, wanted: str, column: str, file: Path, rows: np.ndarray,
                 where: str) -> None:
    bad = (values.to_numpy() != wanted)
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricsError(f"{column} is {values.iloc[i]!r} but the {where} says {wanted!r}",
                           str(file), int(rows[i]))


def _check_report(folder: Path, shape: str, number: int, kind: str, label: str,
                  task: str) -> None:
    report = folder / "block-report.tsv"
    if not report.is_file():
        return
    raw = _read_tsv(report)
    rows = np.arange(2, len(raw) + 2)
    if shape == "sep2020":
        for col in ("block_num", "block_type", "task_name"):
            if col not in raw.columns:
                raise MetricsError(f"missing column {col!r}", str(report))
        _check_equal(raw["block_num"], str(number), "block_num", report, rows, "folder name")
        _check_equal(raw["block_type"], kind, "block_type", report, rows, "folder name")
        _check_equal(raw["task_name"], task, "task_name", report, rows, "folder name")
    else:
        for col in ("phase", "class_name"):
            if col not in raw.columns:
                raise MetricsError(f"missing column {col!r}", str(report))
        _check_equal(raw["phase"], label, "phase", report, rows, "folder name")
        _check_equal(raw["class_name"], task, "class_name", report, rows, "folder name")


def read_file(file: Path, index: int, perf: str, data: bytes | None = None,
              first_row: int = 2) -> tuple[pd.DataFrame, str]:
    """One data file's episodes (``file`` is its index among the log's files) and its shape;
    ``data``: its header and the lines from line ``first_row`` on only (``sylla watch``
    reads the lines appended since its last update)."""
    task_dir, phase_dir, worker_dir = file.parent, file.parent.parent, file.parent.parent.parent
    folder = FOLDER.match(phase_dir.name)
    if folder is None:
        raise MetricsError("folder name must be <block>-<phase number>_<train|test>, e.g. "
                           "1-1_test", str(phase_dir))
    number, phase_number, kind = int(folder.group(1)), int(folder.group(2)), folder.group(3)
    label = f"{phase_number}.{kind}"
    task = task_dir.name
    raw = _read_tsv(file, data)
    shape = _shape(list(raw.columns), file)
    episode_col, block_col, task_col, status_col, phase_col = SHAPES[shape]
    rows = np.arange(first_row, len(raw) + first_row)
    _check_report(task_dir, shape, number, kind, label, task)
    _check_equal(raw[task_col], task, task_col, file, rows, "task folder")
    if phase_col is not None:
        _check_equal(raw[phase_col], label, phase_col, file, rows, "phase folder")
    else:
        numbers = _integers(raw, "block_num", file, rows, "the block of the folder")
        bad = numbers != number
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricsError(f"block_num is {numbers[i]} inside folder {phase_dir.name}",
                               str(file), int(rows[i]))
    status = raw[status_col]
    bad = (~status.isin((DONE, NOT_DONE))).to_numpy()
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricsError(f"{status_col} must be {DONE} or {NOT_DONE}, got "
                           f"{status.iloc[i]!r}", str(file), int(rows[i]))
    worker = WORKER.match(worker_dir.name)
    part = pd.DataFrame({
        "worker_dir": worker.group(1) if worker else worker_dir.name,
        "episode": _integers(raw, episode_col, file, rows, "the episode's index in the syllabus"),
        "block_num": _integers(raw, block_col, file, rows, "the block"),
        "phase": label, "kind": kind, "subtype": "wake", "task": task,
        "perf": check_perf(raw, perf, str(file), rows), "row": rows, "file": index,
        "cut": (status == NOT_DONE).to_numpy(),
    })
    return part, shape


def data_files(path: Path) -> list[Path]:
    """The log's data files, in the order their episodes are numbered within (``file``)."""
    files = sorted(path.glob("worker-env-*/*/*/data-log.tsv"))
    if not files:
        raise MetricsError("no worker-env-K/<block>-<phase>_<type>/<task>/data-log.tsv files",
                           str(path), exit_code=EXIT_USAGE)
    return files


def read_learnkit(path: Path, perf: str = "reward", allow_partial: bool = False) -> EpisodeLog:
    """Read every worker's data files into one episode per global episode index."""
    files = data_files(path)
    return merge(path, files, [read_file(file, index, perf) for index, file in enumerate(files)],
                 perf, allow_partial)


def merge(path: Path, files: list[Path], read: list[tuple[pd.DataFrame, str]], perf: str,
          allow_partial: bool) -> EpisodeLog:
    """The log from each data file's episodes and shape (`read_file`, in ``files`` order)."""
    parts = [part for part, _ in read]
    shapes = {shape for _, shape in read}
    if len(shapes) > 1:
        raise MetricsError("the data logs mix the September and February 2020 learnkit shapes",
                           str(path))
    frame = pd.concat(parts, ignore_index=True)
    frame = frame.sort_values(["episode", "row"], kind="stable", ignore_index=True)
    first = frame.drop_duplicates("episode", keep="first")
    # one episode, several rows: all must come from one worker, block and task
    for col, what in (("worker_dir", "worker"), ("block_num", "block"), ("task", "task")):
        counts = frame.groupby("episode", sort=False)[col].nunique()
        if (counts > 1).any():
            episode = int(counts.index[int(np.argmax(counts.to_numpy() > 1))])
            rows = frame[frame.episode == episode]
            second = rows[rows[col] != rows[col].iloc[0]].iloc[0]
            files_ = [str(f) for f in files]
            raise MetricsError(f"episode {episode} is logged by more than one {what} "
                               f"({rows[col].iloc[0]!r} and {second[col]!r})",
                               files_[int(second.file)], int(second.row))
    means = frame.groupby("episode", sort=True)["perf"].mean()
    out = first.reset_index(drop=True)
    episodes = out["episode"].to_numpy()
    gaps = episodes != np.arange(episodes.size)
    warnings: list[str] = []
    if gaps.any():
        i = int(np.argmax(gaps))
        message = (f"episode {i} is missing from every worker (the log goes from episode "
                   f"{int(episodes[i - 1]) if i else 'none'} to {int(episodes[i])})")
        missing = int(episodes[-1]) + 1 - episodes.size
        if missing > 1:
            workers = sorted({f.parent.parent.parent.name for f in files}, key=natural_order)
            message += (f"; {missing} of episodes 0-{int(episodes[-1])} are missing, and the "
                        f"log holds {len(workers)} worker folder(s) ({', '.join(workers)}): "
                        "learnkit's workers took their episodes from one shared queue, so a "
                        "missing worker folder leaves holes like these")
        if not allow_partial:
            raise MetricsError(message + " (use --allow-partial to compute with the episodes "
                               "present; with --syllabus each is placed in its block by its "
                               "number, and the blocks that miss episodes are marked partial)",
                               str(files[int(out.file.iat[i])]), int(out.row.iat[i]))
        warnings.append(f"{path}: {message}; metrics use the episodes present")
    cut = frame.loc[frame["cut"], "episode"].unique()
    if cut.size:
        where = frame[frame["cut"]].iloc[0]
        warnings.append(f"{path}: {cut.size} episode(s) have status {NOT_DONE} (cut at the "
                        f"step limit; the first is episode {int(where.episode)}, "
                        f"{files[int(where.file)]}:{int(where.row)}); they are read as "
                        "ordinary episodes, as l2metrics read them in 2020")
    out["perf"] = means.to_numpy()
    out["exp"] = out["episode"]
    out["worker"] = "0"
    out["run"] = path.name
    out["params"] = ""
    out = out.drop(columns=["worker_dir", "cut"])
    return EpisodeLog(frame=out, path=str(path), format="learnkit",
                      files=[str(f) for f in files], perf=perf, warnings=warnings)
