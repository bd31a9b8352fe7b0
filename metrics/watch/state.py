"""The live state: ``sylla metrics --format json``'s document plus ``progress`` and
``divergence``, computed on the mirror of complete lines.

Why recompute through `compute_metrics` instead of a second, incremental set of formulas: the
document must equal the batch command's at every moment, bit for bit, and the batch path is
the one the tests and the differential harness against l2metrics already pin down. Reading is
incremental (the mirror copies only new bytes); see docs/watch.md for what that costs.

With a syllabus the state is computed as ``--allow-partial`` does: a run being written has,
by definition, not finished its schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from sylla.grammar.syllabus.schedule import schedule
from sylla.metrics.errors import MetricsError
from sylla.metrics.feasibility import feasibility
from sylla.metrics.memo import BlockMemo
from sylla.metrics.readers import detect, read_log, reader_for
from sylla.metrics.readers.sniff import is_l2logger
from sylla.metrics.registry import load_plugins, resolve_params
from sylla.metrics.result import compute_metrics
from sylla.metrics.syllabus import load_syllabus

from .conformance import Divergence, Progress, block_ordinals, check, progress_without_syllabus, raw_l2logger_frame
from .curve import Curve
from .incremental import Incremental
from .iscil_progress import IscilProgress
from .labels import Labels
from .refused import refused_frame
from .ste_runs import SteRuns

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.schedule import Schedule
    from sylla.metrics.data import EpisodeLog
    from sylla.metrics.registry import Metric

    from .mirror import Mirror


@dataclass
class Options:
    """The metric options of ``sylla metrics`` that ``sylla watch`` and ``sylla report`` take."""

    syllabus: str | None = None
    ste: list[str] = field(default_factory=list)
    perf: str | None = None
    log_format: str = "auto"
    params: dict[str, str] = field(default_factory=dict)
    only: list[str] | None = None
    duplicates: str = "warn"
    allow_partial: bool = False


@dataclass
class State:
    """One moment of the run: the metrics document (or the error that stops it), progress,
    the first divergence, and the per-episode curve points for the dashboard."""

    document: dict[str, Any] | None
    error: str | None
    progress: Progress
    divergence: Divergence | None
    #: the curve points (`Curve.points`: down-sampled, finished bins only), and the curve's
    #: epoch: a new epoch means the points were rebuilt, not only appended to
    points: list[dict[str, Any]]
    epoch: int = 0
    #: metrics the syllabus cannot yield, with the smallest fix (`feasibility_notes`)
    feasibility: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.document or {})
        out["progress"] = self.progress.to_json()
        out["feasibility"] = list(self.feasibility)
        out["divergence"] = self.divergence.to_json() if self.divergence else None
        out["error"] = self.error
        return out


def warm() -> None:
    """Import the readers, pandas, pyarrow and the metric plugins now: a follower started on an
    empty folder would otherwise pay seconds of imports on the first line, and the first
    divergence must show within 2 s."""
    from sylla.metrics.readers import l2logger, learnkit, plain  # noqa: F401, PLC0415 - imported for its side effect: the import itself is the warming

    resolve_params(load_plugins(), {})


def feasibility_notes(model: "Syllabus | None", options: Options) -> list[str]:
    """One line per metric the syllabus cannot yield ("needs a test phase after 3.train"),
    as ``sylla explain --metrics`` judges it: computed once, the syllabus does not change."""
    if model is None:
        return []

    plugins = load_plugins()
    if options.only:
        plugins = [p for p in plugins if p.name in options.only]
    ste: list[str] | None = [] if not options.ste else None  # with --ste, the STE tasks are judged by the data
    notes = []
    for m in feasibility(model, params=dict(options.params), plugins=plugins,
                         ste_tasks=ste if ste is not None else model.tasks):
        if not m.feasible:
            notes.append(f"{m.name}: {m.reason}" + (f"; fix: {m.fix}" if m.fix else ""))
    return notes


def load_model(options: Options) -> "Syllabus | None":

    return load_syllabus(options.syllabus) if options.syllabus else None


def _feed(curve: Curve, frame: Any, model: "Syllabus | None") -> None:
    """Feed the curve the rows of the reader's table ``frame`` it has not seen (all of them,
    after a reset, when the table no longer starts with the rows it was fed)."""
    if frame is None or frame.empty or "perf" not in frame.columns:
        return
    if not curve.continues(frame["episode"].to_numpy(), frame["perf"].to_numpy()):
        curve.reset()
    start = curve.consumed
    if start >= len(frame):
        return
    # columns as they are (categorical, Arrow): the curve factorizes them
    _feed_rows(curve, {c: frame[c].iloc[start:] for c in _CURVE_COLUMNS if c in frame.columns},
               model)


#: the columns the curve takes (``block_num``: an l2logger log's block, named ``block``)
_CURVE_COLUMNS = ("run", "worker", "episode", "perf", "task", "kind", "phase", "block_num")


def _feed_rows(curve: Curve, rows: dict[str, Any], model: "Syllabus | None") -> None:
    """Feed the curve rows that follow those it was fed, as columns (Series, arrays or
    `Labels`). Per row: episode, perf, task, kind, phase, block, as the PNG plots draw
    them; with a syllabus, phase and block come from the schedule (an l2logger log has no
    phase labels of its own).

    Why columns and no DataFrame.to_dict: that costs ~30 us a row, more than the metrics of an
    update; the curve bins whole columns with numpy."""
    if "perf" not in rows or not len(rows["perf"]):
        return
    values: dict[str, Any] = {}
    for c in _CURVE_COLUMNS:
        if c in rows:
            values["block" if c == "block_num" else c] = rows[c]
    values["perf"] = np.asarray(rows["perf"], dtype=np.float64)
    values["episode"] = np.asarray(rows["episode"], dtype=np.int64)
    if model is not None:
        sched, labels, codes = _phases_of(model)
        episode = values["episode"]
        inside = (episode >= 0) & (episode < sched.episodes)
        ordinal = np.where(inside, block_ordinals(sched, episode), -1)
        values["block"] = ordinal
        values["phase"] = Labels(codes[ordinal], tuple(labels))
    curve.feed(values)


#: the last syllabus `_phases_of` was asked about, and its answer
_phases_kept: "tuple[Syllabus, tuple[Schedule, np.ndarray, np.ndarray]] | None" = None


def _phases_of(model: "Syllabus") -> "tuple[Schedule, np.ndarray, np.ndarray]":
    """The syllabus' schedule, its distinct phase labels and each block's label as a code
    into them (the last code: "", for an episode outside the schedule). Kept for the syllabus
    asked about last: a follower asks at every update with the one syllabus it follows, and
    flattening a syllabus of hundreds of blocks again cost more than the update's rows."""
    global _phases_kept
    if _phases_kept is not None and _phases_kept[0] is model:
        return _phases_kept[1]
    sched = schedule(model)
    labels, codes = np.unique(np.array([b.phase_label or "" for b in sched.blocks] + [""],
                                       dtype=object), return_inverse=True)
    _phases_kept = (model, (sched, labels, codes))
    return sched, labels, codes


def compute_state(mirror: "Mirror", options: Options, model: "Syllabus | None",
                  curve: Curve | None = None) -> State:
    """Read the mirror once, check it against the schedule, then compute the document."""
    return full_state(mirror, options, model, curve or Curve())[0]


def _format(mirror: "Mirror", options: Options) -> str | None:
    """The log's format as `read_log` takes it, or None when it cannot be told yet."""
    if options.log_format != "auto":
        return options.log_format
    try:
        return detect(mirror.path)
    except MetricsError:
        return None


def incremental_state(inc: Incremental, mirror: "Mirror", model: "Syllabus",
                      curve: Curve) -> State | None:
    """The next state from the rows appended since the last one (`Incremental`), or None when
    only a recompute from the mirror gives ``sylla metrics``' answer."""
    try:
        update = inc.update()
    except MetricsError:  # e.g. a plugin's refusal: the recompute reports it as the batch does
        return None
    if update is None:
        return None
    document = update.result.to_json()
    document["warnings"] = [mirror.real(w) for w in document["warnings"]]
    _feed_rows(curve, update.rows, model)
    return State(document, None, update.progress, None, curve.points, curve.epoch)


def full_state(mirror: "Mirror", options: Options, model: "Syllabus | None", curve: Curve,
               memo: BlockMemo | None = None,
               reader: "Callable[[Mapping[str, Any]], EpisodeLog | None] | None" = None,
               plugins: "list[Metric] | None" = None,
               iscil: IscilProgress | None = None,
               ste: SteRuns | None = None) -> tuple[State, Incremental | None]:
    """`compute_state`, plus what the next update can start from when the log is one that
    `Incremental` follows (else None). ``memo``: the block values kept by the follower's last
    computation; a log re-read whole (l2logger, learnkit, continual-imitation, a plain log
    without a syllabus) still recomputes only the blocks that changed, when its rows only
    grew (`BlockMemo.admit` checks). ``reader``: the log as the batch reader reads the mirror,
    from what an earlier read kept (`IscilTail.read`, given the metric parameters), or None
    when `read_log` must read it. ``plugins``: the metric plugins found once by the caller
    (finding them reads every installed package's entry points: ~15 ms an update).
    ``iscil``: the follower's count of a continual-imitation log's phases (`IscilProgress`,
    fed the appended lines), for its progress through the syllabus. ``ste``: the STE runs of
    ``options.ste`` as the follower keeps them (read once, `SteRuns`)."""

    empty = Progress(0, None, None, None)
    if model is not None:

        empty = Progress(0, schedule(model).episodes, None, None)
    if not mirror.path.exists():
        curve.reset()
        return State(None, "nothing written yet", empty, None, curve.points, curve.epoch), None
    frame = None
    log: EpisodeLog | None = None
    try:
        plugins = plugins if plugins is not None else load_plugins()
        values = resolve_params(plugins, dict(options.params))
        log = reader(values) if reader is not None else None
        if log is None:
            log = read_log(mirror.path, options.perf, options.log_format, False,
                           allow_partial=options.allow_partial or model is not None,
                           duplicates=options.duplicates, options=values)
        frame = log.frame
        divergence, progress = None, empty
        if model is not None and not reader_for(log.format).per_episode:
            progress = (iscil or IscilProgress(mirror)).progress(model, _iscil_filter(options))
        elif "episode" in frame.columns and not frame.empty:
            if model is not None:
                divergence, progress = check(frame, model)
            else:
                progress = progress_without_syllabus(frame)
        _feed(curve, frame, model)
        # kept for the updates that follow: they then recompute only the blocks that changed
        memo = memo if memo is not None else BlockMemo()
        result = compute_metrics(
            log, model, ste=ste.snapshot() if ste is not None else options.ste, perf=options.perf, log_format=options.log_format,
            params=dict(options.params), allow_partial=options.allow_partial or model is not None,
            plugins=plugins, only=options.only, progress=False, duplicates=options.duplicates,
            memo=memo)
        memo.sweep()
        document = result.to_json()
        document["warnings"] = [mirror.real(w) for w in document["warnings"]]
        inc = (Incremental.seed(mirror, log, result, model, options, memo, plugins, ste)
               if divergence is None else None)
        return State(document, None, progress, divergence, curve.points, curve.epoch), inc
    except MetricsError as exc:
        progress, divergence = empty, None
        fmt = log.format if log is not None else _format(mirror, options)
        if model is not None and fmt is not None and not reader_for(fmt).per_episode:
            progress = (iscil or IscilProgress(mirror)).progress(model, _iscil_filter(options))
        else:
            if frame is None and model is not None and mirror.path.is_dir():

                if is_l2logger(mirror.path):  # a reader refusal may be the divergence itself
                    frame = raw_l2logger_frame(mirror.path)
            if frame is not None and "episode" in frame.columns and not frame.empty:
                if model is not None:
                    divergence, progress = check(frame, model)
                else:
                    progress = progress_without_syllabus(frame)
            elif model is not None and fmt is not None:
                # progress only: no divergence is taken from rows the reader refuses (a
                # learnkit worker may be an episode behind the others while the run is written)
                lenient = refused_frame(mirror.path, fmt)
                if lenient is not None and not lenient.empty:
                    progress = check(lenient, model)[1]
        if frame is not None and "perf" in frame.columns:
            _feed(curve, frame, model)
        # a log the reader refuses (often the divergence itself) keeps the curves it had
        return State(None, mirror.real(str(exc)), progress, divergence, curve.points,
                     curve.epoch), None


def _iscil_filter(options: Options) -> str:
    """``-P iscil_filter``: which experiments under a root the reader reads."""
    return str(options.params.get("iscil_filter") or "")
