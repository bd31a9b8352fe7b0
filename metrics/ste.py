"""Single-task-expert (STE) data: load runs given with ``--ste``, and store them on request.

Each ``--ste PATH`` is one run (an l2logger or learnkit directory, or a plain log of one task) or
a directory holding such runs. A run must train exactly one task. Stored STE data is written as
Parquet or CSV, one self-describing file per run (``<dir>/<task>/<run>.<ext>``, every logged
row with its block structure and ``exp_num``: `sylla.metrics.readers.ste_store`) so that
``--ste DIR`` later gives the same numbers as the runs themselves. Never pickle: a pickle runs
code when loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from .data import Columns, RunData, as_frame, column, variant_base
from .errors import EXIT_USAGE, MetricsError
from .memory import reads_together
from .readers import read_log
from .readers.l2logger_files import natural_order
from .readers.sniff import is_l2logger, is_learnkit, kind_of
from .readers.ste_store import COLUMNS as STORE_COLUMNS
from .readers.ste_store import is_ste_store, read_ste_store
from .spill import gather

if TYPE_CHECKING:
    import pandas as pd


def _runs_in(path: Path) -> list[Path]:
    """The runs under ``path``: itself if it is one, else every run below it.

    The walk stops at a run directory (l2logger or learnkit), so a run's own metadata
    (``logger_info.json``, ``scenario_info.json``) and data files are never taken for runs.
    """
    if not path.exists():
        raise MetricsError("no such STE file or directory", str(path), exit_code=EXIT_USAGE)
    if path.is_file() or is_l2logger(path) or is_learnkit(path):
        return [path]
    found: list[Path] = []
    stack = [path]
    while stack:
        folder = stack.pop()
        for child in sorted(folder.iterdir(), reverse=True):
            if child.is_dir():
                if is_l2logger(child) or is_learnkit(child):
                    found.append(child)
                else:
                    stack.append(child)
            elif kind_of(child):
                found.append(child)
    if not found:
        raise MetricsError("no STE runs here (expected l2logger or learnkit directories or "
                           "plain logs)", str(path), exit_code=EXIT_USAGE)
    return sorted(found, key=natural_order)


def load_ste(paths: list[str | Path], perf: str | None = None) -> dict[str, list[RunData]]:
    """Task name -> STE runs, in the order given; read one after another, each reading's freed
    memory serving the next (`sylla.metrics.memory.reads_together`)."""
    with reads_together():
        return _loaded(paths, perf)


def _loaded(paths: list[str | Path], perf: str | None) -> dict[str, list[RunData]]:
    out: dict[str, list[RunData]] = {}
    for given in paths:
        for path in _runs_in(Path(given)):
            if is_ste_store(path):  # written by --ste-store: the run exactly as it was read
                run = read_ste_store(path)
                out.setdefault(_trained(run, path), []).append(run)
                continue
            log = read_log(path, perf, stream=True)
            frame = log.frame
            if "task" not in frame.columns:
                frame["task"] = path.stem
            if "kind" not in frame.columns:
                frame["kind"] = "train"
            if log.runs is not None:  # read block by block: aligned already (`align` says so)
                runs = log.runs
            else:
                from .align import align  # noqa: PLC0415 - lazy: start-up (issue 24): align needs pandas

                runs, _ = align(log)
            for run in runs:
                run.run = str(path.name)
                out.setdefault(_trained(run, path), []).append(run)
    return out


def _trained(run: RunData, path: Path) -> str:
    """The one task an STE run trains."""
    trained = list(dict.fromkeys(column(run.blocks, "task")[column(run.blocks, "kind") == "train"]))
    if len(trained) != 1:
        raise MetricsError(f"an STE run must train exactly one task, this one trains "
                           f"{len(trained)} ({', '.join(map(str, trained)) or 'none'})",
                           str(path))
    return str(trained[0])


def match_ste(ste: dict[str, list[RunData]], tasks: list[str], *, agnostic: bool = False,
              compat: bool = False) -> dict[str, list[RunData]]:
    """Log task -> the STE runs that serve it, with their block names in the log's spelling.

    Names compare case-insensitively (l2logger lower-cases them, and l2metrics stores STE data
    under the lower-cased name, so runs named ``Alpha_V0`` and ``alpha_v0`` are one task's).
    A task gets the runs of its own name; in variant-agnostic mode (``tasks`` are then base
    names) the runs of every variant whose base name is the task's. ``compat`` follows
    l2metrics 3.1.0's ``load_ste_data`` instead: its own name if stored, else, when the task is
    the base name of some stored task, every stored name that *starts with* it (the
    ``<task>*`` glob, which also gives ``ab`` the runs of ``abc_y``). In agnostic mode every
    block of a matched run is renamed to its base name, as l2metrics renames them. STE runs
    that serve no task of the log are kept under their own name.
    """
    stored: dict[str, list[RunData]] = {}
    for name, runs in ste.items():
        stored.setdefault(name.lower(), []).extend(runs)
    canon = {t.lower(): t for t in tasks}
    bases = {variant_base(s) for s in stored}
    out: dict[str, list[RunData]] = {}
    used: set[str] = set()
    for task in tasks:
        t = task.lower()
        if compat:
            names = [t] if t in stored else sorted(s for s in stored if s.startswith(t)) \
                if t in bases else []
        elif agnostic:
            names = sorted(s for s in stored if variant_base(s) == t)
        else:
            names = [t] if t in stored else []
        used.update(names)
        picked = [_renamed(r, canon, agnostic) for s in names for r in stored[s]]
        if picked:
            out[task] = picked
    for name, runs in ste.items():
        if name.lower() not in used and name not in out:
            out[name] = runs
    return out


def _renamed(run: RunData, canon: dict[str, str], agnostic: bool) -> RunData:
    """The run with each block's task in the log's spelling (its base name if agnostic)."""
    def name(task: object) -> str:
        base = variant_base(str(task)) if agnostic else str(task)
        return canon.get(base.lower(), base)

    blocks = _with_tasks(run.blocks, name)
    rows = None
    if run.rows is not None:
        rows = RunData(run.rows.run, run.rows.perf, run.rows.exp,
                       _with_tasks(run.rows.blocks, name), run.rows.partial)
    return RunData(run.run, run.perf, run.exp, blocks, run.partial, rows)


def _with_tasks(blocks: "pd.DataFrame | Columns", name: Callable[[str], str]
                ) -> "pd.DataFrame | Columns":
    """A copy of a block table with ``name`` applied to each block's task (as text)."""
    if isinstance(blocks, Columns):
        out = blocks.copy()
        out["task"] = np.array([name(t) for t in column(blocks, "task").astype(str).tolist()],
                               dtype=object)
        return out
    return blocks.assign(task=blocks["task"].astype(str).map(name))


def store_ste(ste: dict[str, list[RunData]], directory: str | Path, fmt: str = "parquet",
              perf: str = "reward") -> list[Path]:
    """Write each STE run as Parquet or CSV; returns the files written."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24)

    if fmt not in ("parquet", "csv"):
        raise MetricsError(f"STE store format must be parquet or csv, not {fmt!r}",
                           exit_code=EXIT_USAGE)
    written: list[Path] = []
    for task, runs in ste.items():
        folder = Path(directory) / _safe(task)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MetricsError(f"cannot create directory: {exc.strerror}", str(folder),
                               exit_code=EXIT_USAGE) from None
        for run in runs:
            r = run.logged  # every logged row: l2metrics computes STE values over rows
            b = as_frame(r.blocks)
            counts = b["count"].to_numpy(dtype=np.int64)
            spans = list(zip(b.start.astype(int), b.stop.astype(int)))
            frame = pd.DataFrame({
                "task": _each(b, "task", counts), "block": np.repeat(b.block.to_numpy(), counts),
                "block_type": _each(b, "kind", counts),
                "block_subtype": _each(b, "subtype", counts),
                "params": _each(b, "params", counts), "exp_num": gather(r.exp, spans),
                perf: gather(r.perf, spans),
            }, columns=[*STORE_COLUMNS, perf])
            target = folder / f"{_safe(Path(run.run).stem)}.{fmt}"
            if fmt == "parquet":
                frame.to_parquet(target, index=False)
            else:
                frame.to_csv(target, index=False)
            written.append(target)
    return written


def _each(blocks: pd.DataFrame, column: str, counts: np.ndarray) -> np.ndarray:
    """A block-table column repeated onto the rows of each block."""
    return np.repeat(blocks[column].astype(str).to_numpy(dtype=object), counts)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "task"
