"""Follow a run as it is written: wait on filesystem events, sync the mirror, recompute.

Why watchfiles: it waits on the kernel's notifications (inotify, FSEvents, ...), so an idle
run costs no CPU, and it batches a burst of writes into one wake-up (``debounce``), so a
writer flushing a row at a time does not trigger a recompute per row.

The run's own folder is watched; for a single-file log its parent folder is watched instead,
because a file that is replaced (written anew and renamed over) is a new inode the old watch
would never see.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, Mapping

from watchfiles import watch

from sylla.metrics.errors import MetricsError
from sylla.metrics.memo import BlockMemo
from sylla.metrics.readers import DEFAULT_PERF, detect
from sylla.metrics.registry import load_plugins

from .curve import Curve
from .incremental import Incremental
from .iscil_progress import IscilProgress
from .iscil_tail import IscilTail
from .learnkit_tail import LearnkitTail
from .mirror import Mirror
from .state import Options, State, feasibility_notes, full_state, incremental_state, load_model, warm
from .ste_runs import SteRuns

if TYPE_CHECKING:
    from sylla.metrics.data import EpisodeLog


class Follower:
    """Keeps `state` equal to ``sylla metrics`` on the run's complete lines."""

    def __init__(self, run: str | Path, options: Options) -> None:
        self.run = Path(run).resolve()
        self.options = options
        self.model = load_model(options)
        self.feasibility = feasibility_notes(self.model, options)
        warm()
        self.plugins = load_plugins()  # found once (each search reads every entry_points.txt)
        self.mirror = Mirror(self.run)
        self.version = 0  # bumped on every new state; the server's SSE compares it
        self.incremental: Incremental | None = None
        #: the plugins' per-block values, kept from one computation to the next while the
        #: run only grows (`BlockMemo.admit` checks that before each)
        self.memo = BlockMemo()
        #: the STE runs, read once and again only when one of their files changes
        self.ste = SteRuns(options.ste, options.perf) if options.ste else None
        self.curve = Curve()  # the page's points, fed only the rows it has not seen
        # a continual-imitation or learnkit log's files as read so far (`_read_kept`)
        self.iscil: IscilTail | None = None
        self.learnkit: LearnkitTail | None = None
        #: a continual-imitation log's phases counted so far, for its progress
        self.iscil_progress = IscilProgress(self.mirror)
        #: the clock the idle time is measured on (a test may drive its own), when the
        #: mirror last took a complete line on it, and whether `changes` stopped because
        #: none came for its ``idle_timeout``
        self.clock: Callable[[], float] = time.monotonic
        #: milliseconds of silence after which `changes` looks at every file (see there); a
        #: test that must tell an event's refresh from this one sets it out of reach
        self.resync_ms = 2000
        self.changed_at = self.clock()
        self.idle = False
        self._generation = 0  # the mirror's generation the curve was fed from
        #: how the last state was made: "incremental" (appended rows only) or "full"
        self.last_update = "full"
        self.state = self.refresh(force=True)

    def close(self) -> None:
        self.mirror.close()
        if self.incremental is not None:
            self.incremental.close()

    def refresh(self, force: bool = False,
                events: Collection[str | Path] | None = None) -> State:
        """Sync the mirror; update only when a complete line (or a whole file) changed: from
        the appended rows alone when `Incremental` can, else recomputed from the mirror.
        ``events``: the paths the file system's notifications named since the last refresh
        (`Mirror.sync`), or None to look at every file."""
        if self.mirror.sync(events) or force:
            self.touch()
            state = None
            if self.incremental is not None and not force and self.model is not None:
                state = incremental_state(self.incremental, self.mirror, self.model,
                                          self.curve)
                self.last_update = "incremental"
            if state is None:
                if self.mirror.generation != self._generation:  # a file read anew: so is
                    self.curve.reset()                          # the curve
                    self._generation = self.mirror.generation
                old = self.incremental
                state, self.incremental = full_state(self.mirror, self.options, self.model,
                                                     self.curve, self.memo, self._read_kept,
                                                     self.plugins, self.iscil_progress,
                                                     self.ste)
                if (state.error is not None and self.incremental is None and old is not None
                        and old.intact):
                    # the log as it stands is refused (an l2logger block folder with its
                    # header alone): the rows read before are still a sound start for the
                    # next update, which checks its rows again
                    self.incremental = old
                elif old is not None:
                    old.close()
                self.last_update = "full"
            state.feasibility = self.feasibility
            self.state = state
            self.version += 1
        return self.state

    def touch(self) -> None:
        """Start the idle time again: a complete line arrived."""
        self.changed_at = self.clock()

    def idle_for(self) -> float:
        """Seconds since the mirror last took a complete line."""
        return self.clock() - self.changed_at

    def _read_kept(self, values: Mapping[str, Any]) -> "EpisodeLog | None":
        """A continual-imitation or learnkit log read from its appended lines (`IscilTail`,
        `LearnkitTail`), or None: `read_log` reads the mirror whole (any other format, or a
        log the tail leaves to it)."""
        fmt = self.options.log_format
        if fmt not in ("auto", "iscil", "learnkit") or not self.mirror.path.exists():
            return None
        try:
            fmt = detect(self.mirror.path) if fmt == "auto" else fmt
        except MetricsError:
            return None
        if fmt == "iscil":
            if self.iscil is None:
                self.iscil = IscilTail(self.mirror)
            return self.iscil.read(values)
        if fmt == "learnkit" and self.mirror.path.is_dir():
            if self.learnkit is None:
                self.learnkit = LearnkitTail(self.mirror)
            # what `read_log` hands the learnkit reader (`full_state`'s allow_partial)
            return self.learnkit.read(self.options.perf or DEFAULT_PERF,
                                      self.options.allow_partial or self.model is not None)
        return None

    def _watched(self) -> Path:
        return self.run if self.run.is_dir() else self.run.parent

    def changes(self, stop: threading.Event | None = None,
                idle_timeout: float | None = None) -> Iterator[State]:
        """Yield each new state as the run grows, until ``stop`` is set or, with an
        ``idle_timeout``, no complete line has arrived for that many seconds (`idle` is then
        True: a writer that crashed or hangs writes nothing more)."""
        self.idle = False
        # yield_on_timeout: writes that land between the first read and the moment the watch
        # is set up raise no event; a re-sync after `resync_ms` (2 s) of silence (a few stat
        # calls, no recompute unless a complete line arrived) closes that gap, and is where
        # the idle time is looked at when nothing stirs at all
        tick = self.resync_ms
        if idle_timeout:
            tick = max(50, min(tick, int(idle_timeout * 1000)))
        for batch in watch(self._watched(), stop_event=stop, debounce=200, step=50,
                           yield_on_timeout=True, raise_interrupt=False,
                           rust_timeout=tick):
            before = self.version
            # the paths the events name; none (a time-out): every file is looked at
            self.refresh(events=[path for _, path in batch] if batch else None)
            if self.version != before:
                yield self.state
            elif idle_timeout and self.idle_for() >= idle_timeout:
                self.idle = True
                return

    def follow(self, on_state: Callable[[State], bool], stop: threading.Event | None = None,
               idle_timeout: float | None = None) -> None:
        """Call ``on_state`` with the current state and every new one; stop when it returns
        False, ``stop`` is set, or (`idle`) no complete line came for ``idle_timeout`` s."""
        self.idle = False
        if not on_state(self.state):
            return
        for state in self.changes(stop, idle_timeout):
            if not on_state(state):
                return
