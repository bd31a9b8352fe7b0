"""A grid of runs: every agent with every seed, one run folder each, laid out for the sweep.

``sylla run S --agent A --agent B --seeds 0-4 -o OUT_DIR`` writes ``OUT_DIR/<agent>/seed-<n>/``,
each an ordinary run (`run.run_one`). ``sylla sweep OUT_DIR`` finds each by its
``logger_info.json`` and reads its groups from l2logger's ``scenario_info.json``, where the run
writes ``agent`` and ``seed``: the syllabus is the same in every run, so it is left out, the agents
are the groups and the seeds the replicates (the sweep's default ``--replicate seed``), and
``sylla compare`` reads the sweep's output as it is. The folder names are for people; the
groups come from the metadata.

The runs go through the sweep's own executor (``sylla.metrics.sweep.execute.Executor``): in
this process, local worker processes (``--jobs``) or a Dask cluster (``--dask``), the same path
``sylla sweep --dask`` takes. Each cell catches its own errors, so one failed run is reported by
name and the others finish. A cell writes files, so it never runs twice: when a worker process
dies, the cells it may have held are reported as failed (``--resume`` goes on with them), the
finished ones keep their outcome, and the cells not yet started run on fresh workers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import EXIT_FAILED, EXIT_USAGE, RunError
from .tasks.errors import TaskError

#: numpy's seed range as sylla uses it (one 32-bit word; ``sylla run --seed``'s bound)
SEED_MAX = 2**32 - 1

if TYPE_CHECKING:
    from .run import RunRequest


@dataclass(frozen=True)
class CellOutcome:
    """One run of the grid: where, and its status or the error that stopped it."""

    agent: str
    seed: int
    run_dir: str
    status: str
    episodes: int = 0
    error: str | None = None
    exit_code: int = 0


def parse_seeds(text: str) -> list[int]:
    """``0-4``, ``0,2,7`` or ``3`` (ranges inclusive, mixable: ``0-2,9``), in order, each once."""
    seeds: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if m is None:
            raise RunError(f'--seeds wants N, A-B or a comma-separated list of them, got "{text}"')
        low = int(m.group(1))
        high = int(m.group(2)) if m.group(2) is not None else low
        if high < low:
            raise RunError(f'--seeds: the range "{part.strip()}" ends before it starts')
        if high > SEED_MAX:
            raise RunError(f'--seeds: a seed is at most {SEED_MAX}, got {high}')
        if high - low >= 100_000:
            raise RunError(f'--seeds: the range "{part.strip()}" holds more than 100000 seeds')
        seeds.extend(s for s in range(low, high + 1) if s not in seeds)
    return seeds


def folder(agent: str) -> str:
    """The folder name of an agent: ``pkg.mod:Class`` becomes ``pkg.mod_Class``."""
    return re.sub(r"[^\w.-]+", "_", agent).strip("_") or "agent"


def cells(base: "RunRequest", agents: list[str], seeds: list[int]) -> list["RunRequest"]:
    """One request per (agent, seed) under ``base.run_dir``; two agents whose folder names
    collide are a usage error, not one run overwriting the other."""
    names: dict[str, str] = {}
    for agent in agents:
        other = names.setdefault(folder(agent), agent)
        if other != agent:
            raise RunError(f'agents "{other}" and "{agent}" would share the folder {folder(agent)}')
    out = Path(base.run_dir)
    return [replace(base, agent=agent, seed=seed, run_dir=str(out / folder(agent) / f"seed-{seed}"))
            for agent in dict.fromkeys(agents) for seed in seeds]


def run_cell(request: "RunRequest") -> CellOutcome:
    """One run of the grid, on whichever worker: every problem a user can cause becomes the
    outcome's error (module level, so processes and Dask workers can unpickle it)."""
    from .run import run_one  # noqa: PLC0415 - lazy: a worker imports the runner when it gets its first cell

    try:
        done = run_one(request)
    except TaskError as exc:
        return CellOutcome(request.agent, request.seed, request.run_dir, "failed", error=str(exc),
                           exit_code=getattr(exc, "exit_code", EXIT_USAGE))
    except Exception as exc:  # noqa: BLE001 - one cell's unforeseen failure is reported by its name; the others go on (and the executor does not run them all again)
        return CellOutcome(request.agent, request.seed, request.run_dir, "failed",
                           error=f"{type(exc).__name__}: {exc}", exit_code=EXIT_FAILED)
    return CellOutcome(request.agent, request.seed, request.run_dir, done.status, done.episodes)


def check(base: "RunRequest", agents: list[str]) -> None:
    """What would fail every cell, found once before any run: the syllabus, its tasks and
    parameters, and the agents' names."""
    from .agents.load import resolve  # noqa: PLC0415 - lazy: the agents load only for a run
    from .plan import make_plan  # noqa: PLC0415 - lazy: the plan loads the grammar's schedule
    from .tasks.registry import Registry  # noqa: PLC0415 - lazy: as above

    make_plan(base.syllabus, Registry.for_run(base.syllabus))
    for agent in dict.fromkeys(agents):
        resolve(agent)


def run_grid(requests: list["RunRequest"], jobs: int | None, dask: str | None) -> list[CellOutcome]:
    """Every cell, through the sweep's executor; outcomes in the order of ``requests``."""
    from sylla.metrics.errors import MetricsError  # noqa: PLC0415 - lazy: pandas loads with the sweep's executor, only for a grid
    from sylla.metrics.sweep.execute import Executor, Lost  # noqa: PLC0415 - lazy: as above

    try:
        with Executor(len(requests), jobs=jobs, dask=dask) as executor:
            results = executor.each(run_cell, requests)
    except MetricsError as exc:  # a Dask address that does not answer
        raise RunError(str(exc), None, EXIT_USAGE) from None
    return [lost(request, result.reason) if isinstance(result, Lost) else result
            for request, result in zip(requests, results)]


def lost(request: "RunRequest", reason: str) -> CellOutcome:
    """A cell whose worker died: it may have written part of its run, so it is not run again
    here; ``--resume`` goes on with it from its last checkpoint."""
    return CellOutcome(request.agent, request.seed, request.run_dir, "failed",
                       error=f"{reason}; the run is kept: go on with --resume", exit_code=EXIT_FAILED)
