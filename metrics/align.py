"""Alignment: give every logged episode its block, task, phase and learning flag.

With a syllabus, the schedule is the truth and the log is checked against it episode by episode
(count, task name, train/test, phase label); the first disagreement stops the run with both values.
Without one, a structured log (l2logger, learnkit, or a plain log with ``task`` and
``block_type`` columns) is split into blocks the way l2metrics numbers its regimes: a new block
starts wherever block number, block type, subtype or task changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

import numpy as np
import pandas as pd

from sylla.grammar.syllabus.schedule import schedule

from .data import EpisodeLog, RunData, column, regime_columns, rows_view
from .errors import MetricsError
from .readers import read_log
from .readers.l2logger_files import natural_order
from .scheduled import block_kind, same_task, schedule_blocks

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.schedule import Schedule, ScheduledBlock


def align(log: EpisodeLog, model: "Syllabus | None" = None,
          allow_partial: bool = False) -> tuple[list[RunData], list[str]]:
    """Split the log into runs and align each; returns the runs and any warnings."""
    if log.runs is not None:
        if model is None:
            return log.runs, []
        aligned = _align_streamed(log, model)
        if aligned is not None:
            return aligned, []
        # the log and the syllabus disagree somewhere (or the run ended early): the whole-log
        # path below finds where and words it, with the file and row, or marks blocks partial
        path, perf = log.path, log.perf
        log.runs = None  # the streamed values are not needed any more
        log = read_log(path, perf, log.format, False, allow_partial=allow_partial)
    warnings: list[str] = []
    runs: list[RunData] = []
    frame = cast("pd.DataFrame", log.frame)  # a per-episode table: the log was read whole
    names = frame["run"]
    single = (names.cat.categories.size == 1 if isinstance(names.dtype, pd.CategoricalDtype)
              else names.nunique() == 1)
    parts = ([(names.iloc[0], frame)] if single
             else frame.groupby("run", sort=False, observed=True))
    for run, part in parts:
        part = part if single else part.reset_index(drop=True)
        if model is not None:
            data, notes, data_rows = _align_schedule(str(run), part, log, model, allow_partial)
        else:
            if not log.structured:
                raise MetricsError(
                    "this log has no task and block_type columns; give the syllabus with "
                    "--syllabus so episodes can be mapped onto blocks", log.path)
            data, notes = _align_regimes(str(run), part)
            data_rows = ((part["row_start"].to_numpy(), part["nrows"].to_numpy())
                         if "nrows" in part.columns else None)
        if log.row_perf is not None and data_rows is not None:
            data.rows = rows_view(data, log.row_perf, data_rows[0], data_rows[1])
        runs.append(data)
        warnings.extend(notes)
    return runs, warnings


# --- with a syllabus ------------------------------------------------------------------------

def _where(log: EpisodeLog, part: pd.DataFrame, i: int) -> tuple[str, int | None]:
    """File and row of the ``i``-th episode of ``part`` for an error message."""
    row = int(part["row"].iat[i]) if "row" in part.columns else None
    if "file" in part.columns and log.files:
        return log.files[int(part["file"].iat[i])], row
    return log.path, row


def _block_of(ends: np.ndarray, episodes: np.ndarray) -> np.ndarray:
    """The scheduled block of each episode, found among the blocks' ends: never an array as
    long as the schedule, which a huge count makes of any length (issue 38)."""
    return np.searchsorted(ends, episodes, side="right")


def _block_at(ends: np.ndarray, episode: int) -> int:
    """The scheduled block of one episode (``_block_of``)."""
    return int(np.searchsorted(ends, episode, side="right"))


def _align_schedule(run: str, part: pd.DataFrame, log: EpisodeLog, model: "Syllabus",
                    allow_partial: bool) -> tuple[RunData, list[str], tuple | None]:
    workers = sorted(part["worker"].astype(str).unique(), key=natural_order)
    notes: list[str] = []
    pieces: list[pd.DataFrame] = []
    partial_blocks: set[int] = set()
    sched: "Schedule | None" = None
    for k, worker in enumerate(workers):
        sched = schedule(model, workers=len(workers), worker=k)
        mine = part[part["worker"].astype(str) == worker]
        mine = mine.sort_values("episode", kind="stable").reset_index(drop=True)
        starts = np.array([b.start for b in sched.blocks], dtype=np.int64)
        ends = np.array([b.end for b in sched.blocks], dtype=np.int64)
        episodes = mine["episode"].to_numpy()
        n, expected = len(episodes), sched.episodes
        who = f"run {run!r}" + (f", worker {worker!r}" if len(workers) > 1 else "")
        gaps = episodes != np.arange(n)
        holes = bool(gaps.any())
        if holes:
            i = int(np.argmax(gaps))
            file, row = _where(log, mine, i)
            twice = i > 0 and episodes[i] == episodes[i - 1]
            where = (f"the log starts at episode {int(episodes[0])}" if i == 0 else
                     f"episode {int(episodes[i])} is logged twice" if twice else
                     f"the log goes from episode {int(episodes[i - 1])} to {int(episodes[i])}")
            if twice or not allow_partial:
                hint = "" if twice else (" (use --allow-partial to compute without the missing "
                                         "episodes)")
                raise MetricsError(f"{who}: episode {i} is missing ({where}){hint}", file, row)
            if int(episodes[-1]) >= expected:
                file, row = _where(log, mine, n - 1)
                raise MetricsError(
                    f"{who}: episode {int(episodes[-1])} is beyond the last block (the syllabus "
                    f"schedules {expected} episodes)", file, row)
            notes.append(_missing_note(who, episodes, sched, i))
        if "task" in mine.columns and n and n != expected and not holes:
            _first_divergent_block(mine, sched.blocks, log, who)
        if holes:
            # the episode numbers are indices into the schedule (a plain log's `episode`,
            # learnkit's global counter): each episode goes to the block its number falls in,
            # and a block that misses some is partial
            ordinals = _block_of(ends, episodes)
            present = np.bincount(ordinals, minlength=len(sched.blocks))
            partial_blocks.update(b.ordinal for b in sched.blocks if present[b.ordinal] < b.count)
        elif n > expected:
            file, row = _where(log, mine, expected)
            raise MetricsError(
                f"{who}: the log has {n} episodes but the syllabus schedules {expected}; "
                f"episode {expected} is beyond the last block", file, row)
        elif n < expected:
            block = sched.blocks[_block_at(ends, n)]
            message = (f"{who}: the log ends after {n} episodes but the syllabus schedules "
                       f"{expected}; block {block.ordinal} ({block.task}, phase "
                       f"{block.phase_label}) covers episodes {block.start}-{block.end - 1}")
            if not allow_partial:
                raise MetricsError(message + " (use --allow-partial for a run that ended early)",
                                   log.path)
            notes.append(message + "; metrics of that block and later are marked partial")
            partial_blocks.add(_block_at(ends, n))
            partial_blocks.update(range(_block_at(ends, n) + 1, len(sched.blocks)))
        if not holes:
            ordinals = _block_of(ends, np.arange(n))
        blocks = sched.blocks
        if "task" in mine.columns:
            all_tasks = {b.task.lower() for b in blocks}
            got = mine["task"].astype(str).to_numpy()
            ok = np.ones(n, dtype=bool)
            for o in np.unique(ordinals) if n else []:
                at = np.flatnonzero(ordinals == o)
                names = pd.unique(got[at])
                good = {t for t in names if same_task(str(t), blocks[int(o)], all_tasks)}
                ok[at] = np.isin(got[at], list(good))

            def wrong_task(i: int, b: "ScheduledBlock", who: str = who,
                           got: np.ndarray = got, ep: np.ndarray = episodes) -> str:
                return (f"{who}: episode {ep[i]} (block {b.ordinal}, episodes {b.start}-"
                        f"{b.end - 1}): the syllabus has task {b.task!r}, the log has {got[i]!r}")
            _stop_at_first(~ok, log, mine, blocks, ordinals, wrong_task)
        if "kind" in mine.columns:
            wanted_kind = np.array([block_kind(b) for b in blocks], dtype=object)[ordinals]
            got = mine["kind"].astype(str).to_numpy()

            def wrong_kind(i: int, b: "ScheduledBlock", who: str = who, got: np.ndarray = got,
                           wanted_kind: np.ndarray = wanted_kind,
                           ep: np.ndarray = episodes) -> str:
                return (f"{who}: episode {ep[i]} (block {b.ordinal}, task {b.task}): the "
                        f"syllabus makes it a {wanted_kind[i]} episode, the log says {got[i]}")
            _stop_at_first(got != wanted_kind, log, mine, blocks, ordinals, wrong_kind)
        if "phase" in mine.columns:
            wanted_phase = np.array([b.phase_label or "" for b in blocks], dtype=object)[ordinals]
            got = mine["phase"].astype(str).to_numpy()

            def wrong_phase(i: int, b: "ScheduledBlock", who: str = who, got: np.ndarray = got,
                            wanted_phase: np.ndarray = wanted_phase,
                            ep: np.ndarray = episodes) -> str:
                return (f"{who}: episode {ep[i]} (block {b.ordinal}): the syllabus has phase "
                        f"{wanted_phase[i]!r}, the log has {got[i]!r}")
            _stop_at_first(got != wanted_phase, log, mine, blocks, ordinals, wrong_phase)
        piece = pd.DataFrame({
            "block": ordinals, "worker": k, "episode": episodes,
            "perf": mine["perf"].to_numpy(),
            "exp": mine["exp"].to_numpy() if "exp" in mine.columns else episodes,
        })
        if "nrows" in mine.columns:
            piece["row_start"] = mine["row_start"].to_numpy()
            piece["nrows"] = mine["nrows"].to_numpy()
        pieces.append(piece)
        del starts
    assert sched is not None
    data = pd.concat(pieces, ignore_index=True).sort_values(
        ["block", "worker", "episode"], kind="stable", ignore_index=True)
    present = np.bincount(data["block"].to_numpy(), minlength=len(sched.blocks))
    blocks_frame = schedule_blocks(sched, present, partial_blocks)
    data_rows = ((data["row_start"].to_numpy(), data["nrows"].to_numpy())
                 if "nrows" in data.columns else None)
    return RunData(run=run, perf=data["perf"].to_numpy(dtype=np.float64),
                   exp=data["exp"].to_numpy(dtype=np.float64), blocks=blocks_frame,
                   partial=bool(partial_blocks)), notes, data_rows


def _missing_note(who: str, episodes: np.ndarray, sched: "Schedule", i: int) -> str:
    """The warning for episodes missing inside a log read with --allow-partial: how many, the
    first, and which blocks are partial for it."""
    expected = sched.episodes
    first = int(episodes[i - 1]) + 1 if i else 0
    block = next(b for b in sched.blocks if b.start <= first < b.end)
    return (f"{who}: {expected - episodes.size} of the {expected} scheduled episodes are "
            f"missing from the log (the first is episode {first}, in block {block.ordinal}: "
            f"{block.task}, phase {block.phase_label}); each episode is placed by its number, "
            "and the blocks that miss episodes are marked partial")


def _align_streamed(log: EpisodeLog, model: "Syllabus") -> list[RunData] | None:
    """A log read block by block (`EpisodeLog.runs`: one worker, its regimes) aligned with a
    schedule without reading it again: the run as `_align_schedule` makes it, when the log has
    exactly the scheduled episodes and every regime's task and train/test kind match the blocks
    it overlaps. None otherwise: the caller reads the whole log and `_align_schedule` words the
    disagreement (with its file and row) or marks the blocks of a run that ended early."""
    assert log.runs is not None
    if len(log.runs) != 1:
        return None
    if log.workers is not None:  # several workers: each has its own schedule
        from .align_workers import align_streamed_workers  # noqa: PLC0415 - lazy: logs of several workers only

        return align_streamed_workers(log, model)
    (run,) = log.runs
    sched = schedule(model, workers=1, worker=0)
    n = int(run.perf.shape[0])
    if n != sched.episodes or n == 0:
        return None
    starts, stops = column(run.blocks, "start"), column(run.blocks, "stop")
    tasks, kinds = column(run.blocks, "task"), column(run.blocks, "kind")
    all_tasks = {b.task.lower() for b in sched.blocks}
    for b in sched.blocks:
        if b.count == 0:
            continue
        first = int(np.searchsorted(stops, b.start, side="right"))
        last = int(np.searchsorted(starts, b.end, side="left"))
        for j in range(first, last):
            if str(kinds[j]) != block_kind(b) or not same_task(str(tasks[j]), b, all_tasks):
                return None
    present = np.array([b.count for b in sched.blocks], dtype=np.int64)
    blocks = schedule_blocks(sched, present, set())
    data = RunData(run=run.run, perf=run.perf, exp=run.exp, blocks=blocks)
    if run.rows is not None:
        data.rows = RunData(run=run.run, perf=run.rows.perf, exp=run.rows.exp,
                            blocks=_row_blocks(run, blocks))
    return [data]


def _row_blocks(run: RunData, blocks: pd.DataFrame) -> pd.DataFrame:
    """``blocks`` (episode ranges of ``run``) with row ranges instead, as `rows_view` makes
    them: a boundary that is a regime's first episode is that regime's first row; one inside a
    regime is found among the regime's rows by its experience number (rows of an experience
    are adjacent and experience numbers rise within a regime)."""
    rows = run.rows
    assert rows is not None
    starts, row_starts = column(run.blocks, "start"), column(rows.blocks, "start")
    stops, row_stops = column(run.blocks, "stop"), column(rows.blocks, "stop")
    total = int(row_stops[-1]) if len(row_stops) else 0

    def row_of(episode: int) -> int:
        j = int(np.searchsorted(stops, episode, side="right"))
        if j == len(stops):
            return total
        a, z = int(row_starts[j]), int(row_stops[j])
        if episode == int(starts[j]):
            return a
        exp = float(run.exp[episode])
        return a + int(np.searchsorted(np.asarray(rows.exp[a:z]), exp, side="left"))

    out = blocks.copy()
    edges = {e: row_of(e) for e in set(out["start"].tolist()) | set(out["stop"].tolist())}
    out["start"] = np.array([edges[e] for e in out["start"].tolist()], dtype=np.int64)
    out["stop"] = np.array([edges[e] for e in out["stop"].tolist()], dtype=np.int64)
    out["count"] = out["stop"] - out["start"]
    return out


def _segments(keys: list[tuple]) -> list[tuple[tuple, int, int]]:
    """Runs of equal keys: (key, start, length)."""
    out: list[tuple[tuple, int, int]] = []
    for i, k in enumerate(keys):
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1], out[-1][2] + 1)
        else:
            out.append((k, i, 1))
    return out


def _first_divergent_block(mine: pd.DataFrame, blocks: tuple, log: EpisodeLog, who: str) -> None:
    """Compare the log's runs of (task, train/test) with the syllabus's, in order, and stop at
    the first whose length differs: a count mismatch is reported where it happens, not as a
    total at the end of the log."""
    all_tasks = {b.task.lower() for b in blocks}
    sched_keys: list[tuple] = []
    for b in blocks:
        sched_keys += [(b.task.lower(), block_kind(b))] * b.count
    task = mine["task"].astype(str).str.lower().to_numpy()
    kind = mine["kind"].astype(str).to_numpy() if "kind" in mine.columns else None
    log_keys = [(t, kind[i] if kind is not None else None) for i, t in enumerate(task)]
    if kind is None:
        sched_keys = [(t, None) for t, _ in sched_keys]
    sched, logged = _segments(sched_keys), _segments(log_keys)
    for k, (s_seg, l_seg) in enumerate(zip(sched, logged)):
        (s_key, s_start, s_len), (_l_key, l_start, l_len) = s_seg, l_seg
        if s_len == l_len:
            continue
        last_logged = k == len(logged) - 1
        if last_logged and l_len < s_len:
            return  # the log ends inside this block: the partial-log rule decides
        block = next(b for b in blocks if b.start <= s_start < b.end)
        if not (same_task(str(mine["task"].iat[l_start]), block, all_tasks)):
            return  # a different task: the per-episode check names it
        at = l_start + min(s_len, l_len)
        file, row = _where(log, mine, min(at, len(mine) - 1))
        raise MetricsError(
            f"{who}: block {block.ordinal} ({block.task}, phase {block.phase_label}): the "
            f"syllabus schedules {s_len} {s_key[1] or ''} episodes of {block.task} here "
            f"(episodes {s_start}-{s_start + s_len - 1}), the log has {l_len} (episodes "
            f"{l_start}-{l_start + l_len - 1}); they diverge at episode {at}".replace("  ", " "),
            file, row)


def _stop_at_first(bad: np.ndarray, log: EpisodeLog, part: pd.DataFrame, blocks: tuple,
                   ordinals: np.ndarray, message: "Callable[[int, ScheduledBlock], str]") -> None:
    """Raise for the first episode where log and syllabus disagree, naming its file and row."""
    if bad.any():
        i = int(np.argmax(bad))
        file, row = _where(log, part, i)
        raise MetricsError(message(i, blocks[int(ordinals[i])]), file, row)


# --- without a syllabus ---------------------------------------------------------------------

def _codes(series: pd.Series) -> np.ndarray:
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy()
    return pd.factorize(series)[0]


def _align_regimes(run: str, part: pd.DataFrame) -> tuple[RunData, list[str]]:
    """Blocks from the log's own structure: a change of block number, type, subtype or task."""
    n = len(part)
    change = np.zeros(n, dtype=bool)
    change[0] = True
    for col in ("block_num", "kind", "subtype", "task"):
        if col in part.columns:
            values = _codes(part[col]) if col != "block_num" else part[col].to_numpy()
            change[1:] |= values[1:] != values[:-1]
    starts = np.flatnonzero(change)
    stops = np.append(starts[1:], n)
    kind = _at(part["kind"], starts)
    task = _at(part["task"], starts)
    subtype = (_at(part["subtype"], starts) if "subtype" in part.columns
               else np.full(len(starts), "wake"))
    params = (_at(part["params"], starts) if "params" in part.columns
              else np.full(len(starts), ""))
    phase = _at(part["phase"], starts) if "phase" in part.columns else None
    blocks = regime_blocks(starts, stops, kind, task, subtype, params, phase)
    if "block_num" in part.columns:  # the log's own number of each regime (l2metrics' regime table)
        blocks["block_num"] = part["block_num"].to_numpy()[starts].astype(np.int64)
    exp = part["exp"].to_numpy(dtype=np.float64) if "exp" in part.columns else np.arange(n, dtype=float)
    return RunData(run=run, perf=part["perf"].to_numpy(dtype=np.float64), exp=exp,
                   blocks=blocks), []


def regime_blocks(starts: np.ndarray, stops: np.ndarray, kind: np.ndarray, task: np.ndarray,
                  subtype: np.ndarray, params: np.ndarray,
                  phase: np.ndarray | None = None) -> pd.DataFrame:
    """`sylla.metrics.data.regime_columns` as a DataFrame."""
    return regime_columns(starts, stops, kind, task, subtype, params, phase).to_frame()


def _at(series: pd.Series, positions: np.ndarray) -> np.ndarray:
    """Values at a few positions as strings (without stringifying the whole column)."""
    return np.asarray(series.iloc[positions]).astype(str).astype(object)

