"""Live syllabus conformance: the first episode where a run strays from its schedule.

``sylla metrics --syllabus`` checks the same things after the run (`sylla.metrics.align`), and
stops with a message. A watchdog needs more than a message: the episode, what the syllabus
expected, what the log holds, and where in the syllabus that block is written, as data the page
and ``--check`` can show. The comparisons are align's own (`same_task`, the train/test kind of a
block, its phase label), so the two never disagree on what a divergence is.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sylla.grammar.syllabus.schedule import schedule
from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.l2logger import data_files
from sylla.metrics.readers.l2logger_files import natural_order
from sylla.metrics.scheduled import block_kind, same_task

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.schedule import Schedule, ScheduledBlock


@dataclass(frozen=True)
class Divergence:
    """The first disagreement between log and schedule, as the page and ``--check`` show it."""

    episode: int
    expected: str
    found: str
    path: str  # the syllabus file
    line: int  # 1-based line of the block in the syllabus
    worker: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        who = f" (worker {self.worker})" if self.worker else ""
        return (f"{self.path}:{self.line}: episode {self.episode}{who}: the syllabus expects "
                f"{self.expected}, the log has {self.found}")


@dataclass(frozen=True)
class Progress:
    """Where the run is in its schedule (the slowest worker decides)."""

    episodes_read: int
    episodes_planned: int | None
    phase: str | None
    block: int | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def complete(self) -> bool:
        return self.episodes_planned is not None and self.episodes_read >= self.episodes_planned


def _line(model: "Syllabus", block: "ScheduledBlock") -> int:
    return model.line_col(block.block.span.start)[0]


def _describe(block: "ScheduledBlock", kind: str) -> str:
    phase = f", phase {block.phase_label}" if block.phase_label else ""
    learning = "learning on" if kind == "train" else "learning off"
    return f"task {block.task} ({learning}{phase}, block {block.ordinal})"


def _show_params(params: "Mapping[str, Any]") -> str:
    return json.dumps(dict(params), sort_keys=True, default=str)


def params_divergence(got: np.ndarray, ordinals: np.ndarray,
                       blocks: "tuple[ScheduledBlock, ...]") -> tuple[int, str] | None:
    """The first episode whose logged task parameters (an l2logger ``task_params`` JSON
    object) contradict its block's: a parameter the syllabus sets (``default_params`` merged
    with the block's own) that the log has with another value, or lacks. Keys the log has
    beyond the syllabus's are the environment's own defaults and no divergence. An episode
    logged with no parameters at all (empty, ``{}``) is not checked: such a logger records
    none for any episode, and every episode would otherwise diverge.

    Vectorised over the distinct parameter strings of each block (a handful), not per episode.
    """
    bad = np.zeros(len(got), dtype=bool)
    for o in np.unique(ordinals):
        wanted = dict(blocks[int(o)].params)
        if not wanted:
            continue
        where = np.flatnonzero(ordinals == o)
        for text in pd.unique(got[where]):
            if not _params_agree(str(text), wanted):
                bad[where[got[where] == text]] = True
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    return i, str(got[i])


def _params_agree(text: str, wanted: dict[str, Any]) -> bool:
    if text.strip() in ("", "{}", "nan", "None"):
        return True
    try:
        logged = json.loads(text)
    except ValueError:
        return False
    if not isinstance(logged, dict):
        return False
    missing = object()
    return all(logged.get(k, missing) == v for k, v in wanted.items())


def _check_worker(mine: "pd.DataFrame", sched: "Schedule", model: "Syllabus",
                  worker: str) -> Divergence | None:
    """One worker: the episode counter, then task, kind and phase, vectorised as align does
    (a Python loop per episode costs seconds on a million-episode log)."""


    path = model.path or "<syllabus>"
    blocks = sched.blocks
    all_tasks = {b.task.lower() for b in blocks}
    episodes = mine["episode"].to_numpy()
    n = len(episodes)
    ends = np.array([b.end for b in blocks], dtype=np.int64)
    gaps = episodes != np.arange(n)
    first_gap = int(np.argmax(gaps)) if gaps.any() else n
    limit = min(first_gap, sched.episodes)
    # each logged episode's block, found among the block ends: never an array as long as the
    # schedule, which a huge count makes of any length (issue 38)
    ordinals = np.searchsorted(ends, np.arange(limit), side="right")
    candidates: list[tuple[int, str, str, "ScheduledBlock"]] = []
    if "task" in mine.columns and limit:
        got = mine["task"].astype(str).to_numpy()[:limit]
        ok = np.ones(limit, dtype=bool)
        for o in np.unique(ordinals):
            where = np.flatnonzero(ordinals == o)
            names = pd.unique(got[where])
            good = [t for t in names if same_task(str(t), blocks[int(o)], all_tasks)]
            ok[where] = np.isin(got[where], good)
        if not ok.all():
            i = int(np.argmin(ok))
            candidates.append((i, "task", f"task {got[i]}", blocks[int(ordinals[i])]))
    kinds = np.array([block_kind(b) for b in blocks], dtype=object)
    if "kind" in mine.columns and limit:
        got = mine["kind"].astype(str).to_numpy()[:limit]
        bad = got != kinds[ordinals]
        if bad.any():
            i = int(np.argmax(bad))
            found = "learning on" if got[i] == "train" else "learning off"
            candidates.append((i, "kind", f"{found} ({got[i]})", blocks[int(ordinals[i])]))
    if "phase" in mine.columns and limit:
        labels = np.array([b.phase_label or "" for b in blocks], dtype=object)
        got = mine["phase"].astype(str).to_numpy()[:limit]
        bad = got != labels[ordinals]
        if bad.any():
            i = int(np.argmax(bad))
            candidates.append((i, "phase", f"phase {got[i]}", blocks[int(ordinals[i])]))
    if "params" in mine.columns and limit:
        found_params = params_divergence(mine["params"].astype(str).to_numpy()[:limit],
                                          ordinals, blocks)
        if found_params is not None:
            i, text = found_params
            candidates.append((i, "params", f"parameters {text}", blocks[int(ordinals[i])]))
    if candidates:
        i, what, found, block = min(candidates, key=lambda c: c[0])
        expected = _describe(block, block_kind(block))
        if what == "params":
            expected += f" with parameters {_show_params(block.params)}"
        return Divergence(i, expected, found, path, _line(model, block), worker)
    if first_gap < n and first_gap < sched.episodes:
        block = sched.block_at(first_gap) or blocks[-1]
        return Divergence(first_gap, f"episode {first_gap}", f"episode {int(episodes[first_gap])}",
                          path, _line(model, block), worker)
    if n > sched.episodes:
        return Divergence(sched.episodes, f"the end of the schedule after {sched.episodes} "
                          "episodes", "one more episode", path, _line(model, blocks[-1]), worker)
    return None


def block_ordinals(sched: "Schedule", episodes: np.ndarray) -> np.ndarray:
    """The ordinal of the block each episode falls in (episodes must lie in the schedule):
    a binary search over the block ends, not a table of every scheduled episode (a
    million-entry array per call)."""
    ends = np.array([b.end for b in sched.blocks], dtype=np.int64)
    return np.searchsorted(ends, episodes, side="right")


def check(frame: "pd.DataFrame", model: "Syllabus") -> tuple[Divergence | None, Progress]:
    """The first divergence of any run and worker (earliest episode first), and the progress."""

    if frame.empty:
        return None, Progress(0, schedule(model).episodes, None, None)
    first: Divergence | None = None
    reads: list[tuple[int, "Schedule"]] = []
    for _run, part in frame.groupby("run", sort=False, observed=True):
        workers = sorted(part["worker"].astype(str).unique(), key=natural_order)
        for k, worker in enumerate(workers):
            sched = schedule(model, workers=len(workers), worker=k)
            mine = part[part["worker"].astype(str) == worker].sort_values(
                "episode", kind="stable")
            found = _check_worker(mine, sched, model, worker if len(workers) > 1 else "")
            if found is not None and (first is None or found.episode < first.episode):
                first = found
            reads.append((len(mine), sched))
    n, sched = min(reads, key=lambda r: r[0] / max(r[1].episodes, 1))
    block = sched.block_at(max(n - 1, 0))
    planned = sum(s.episodes for _, s in reads) // max(len(reads), 1) if reads else None
    return first, Progress(n, sched.episodes if len(reads) == 1 else planned,
                           block.phase_label if block else None,
                           block.ordinal if block else None)


def progress_without_syllabus(frame: "pd.DataFrame") -> Progress:
    """Without a schedule only what was read is known."""
    if frame.empty:
        return Progress(0, None, None, None)
    last = frame.iloc[-1]
    phase = str(last["phase"]) if "phase" in frame.columns else None
    block = int(last["block_num"]) if "block_num" in frame.columns else None
    per = frame.groupby(["run", "worker"], observed=True).size()
    return Progress(int(per.min()), None, phase, block)


#: the l2logger columns the raw conformance frame reads
RAW_COLUMNS = ("exp_num", "worker_id", "block_type", "task_name", "task_params")


def raw_l2logger_frame(path: "Path") -> "pd.DataFrame | None":
    """The episodes of an l2logger log as its rows say, for conformance only.

    Why: the l2logger reader rightly refuses a log whose task changes inside a block, which is
    exactly the divergence a watchdog must name with its episode. This reads only the columns
    the schedule is checked against (worker, experience, block type, task, task parameters),
    one episode per experience number in order, so the check can point at the row where the
    run strayed.
    """


    try:
        files = sorted(data_files(path), key=lambda f: natural_order(f.relative_to(path)))
        # leniently: a row with the wrong number of cells, or bytes that are no UTF-8, is
        # the reader's to name; the others still place the run in its schedule
        parts = [pd.read_csv(f, sep="\t", usecols=lambda c: c in RAW_COLUMNS, dtype=str,
                             keep_default_na=False, on_bad_lines="skip",
                             encoding_errors="replace") for f in files]
    except (MetricsError, ValueError, OSError):
        return None
    if not parts or any(c not in p.columns for p in parts for c in RAW_COLUMNS[:4]):
        return None
    rows = pd.concat(parts, ignore_index=True).drop_duplicates(["worker_id", "exp_num"])
    rows["episode"] = rows.groupby("worker_id", sort=False).cumcount()
    out = pd.DataFrame({"run": "", "worker": rows["worker_id"], "episode": rows["episode"],
                        "task": rows["task_name"], "kind": rows["block_type"]})
    if "task_params" in rows.columns:
        out["params"] = rows["task_params"].fillna("")
    return out
