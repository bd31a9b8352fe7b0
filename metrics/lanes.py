"""The metric plugins of one run computed in two lanes, side by side on two threads.

Why: after a long log is read, the plugins ran one after another on one core while the other
idled (issue 24: on a 10M-episode log 2.4 s, a third of ``sylla metrics``' time). Plugins that
declare ``side_by_side = True`` compute from the run, its expert runs and the parameters alone
(no shared cache, no state of their own): the reference metrics. They run in their order on a
second thread while the others (l2metrics' family, which share their preprocessing through the
context's cache, and every third-party plugin) run in theirs on the calling thread. Each plugin
gets a context of its own for its warnings and details; the caller merges them in plugin order,
so what it builds is what one loop over the plugins builds.

One lane only when a single core is available, when a lane would be empty, or when the memo
keeps values across computations (``sylla watch``: its bookkeeping is not for threads).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .cores import cores
from .errors import MetricsError
from .registry import optional

if TYPE_CHECKING:
    from .registry import Context


@dataclass
class Outcome:
    """What one plugin gave: its rows, its context (warnings, details), and the
    `MetricsError` it stopped with, to be raised in plugin order."""

    produced: list[dict[str, Any]]
    ctx: "Context"
    error: MetricsError | None = None


def compute(plugins: list, make_ctx: Callable[[], "Context"], done: Callable[[], None],
            two_lanes: bool) -> list[Outcome | None]:
    """Each plugin's `Outcome`, in plugin order. ``done`` runs after each plugin (under a
    lock: a progress step, a heap trim); a plugin that fails otherwise than with a
    `MetricsError` becomes a warning in its own context. A lane stops at its first
    `MetricsError`, as one loop stops: the plugins it did not run have None, all of them after
    that error in plugin order, which the caller raises first."""
    lock = threading.Lock()
    outcomes: list[Outcome | None] = [None] * len(plugins)

    def lane(indices: list[int]) -> None:
        for i in indices:
            plugin = plugins[i]
            ctx = make_ctx()
            outcome = outcomes[i] = Outcome([], ctx)
            try:
                outcome.produced = list(plugin.compute(ctx))
            except MetricsError as exc:
                outcome.error = exc
            except Exception as exc:  # noqa: BLE001 - a failing plugin must not hide the rest
                ctx.warn(f"{plugin.name}: failed ({type(exc).__name__}: {exc})")
            finally:
                with lock:
                    done()
            if outcome.error is not None:
                return

    side = [i for i, p in enumerate(plugins) if optional(p, "side_by_side")]
    main = [i for i, p in enumerate(plugins) if not optional(p, "side_by_side")]
    if two_lanes and side and main and cores() > 1:
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - lazy: start-up

        with ThreadPoolExecutor(1, thread_name_prefix="sylla-plugins") as pool:
            beside = pool.submit(lane, side)
            try:
                lane(main)
            finally:
                beside.result()
    else:
        lane(list(range(len(plugins))))
    return outcomes
