"""One run: a syllabus, an agent, a seed and a folder, from the checks to the last row.

`RunRequest` is plain data and `run_one` depends on nothing else, so a grid of agents × seeds is
a list of independent requests that processes or a Dask cluster can run as they are (the path
``sylla sweep``'s executor takes). The steps:

1. the output folder: refused when it exists (``--force`` replaces a previous sylla run,
   ``--resume`` goes on with it), a usage error when it cannot be written;
2. the plan (`plan.make_plan`) and the environments (`envs.make_envs`): every unknown task or
   parameter and every refused value before any episode;
3. the agent (`agents.load.build`), restored from the last checkpoint when resuming, the log cut
   back to that checkpoint;
4. the loop (`loop.run_episodes`), with a checkpoint every ``checkpoint_every`` episodes and on
   Ctrl-C, and the manifest's status at the end.
"""

from __future__ import annotations

import shutil
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import checkpoint, manifest
from .agents.load import build
from .envs import close_all, make_envs
from .errors import EXIT_USAGE, RunError
from .log import RunLog, truncate_to
from .loop import Stop, run_episodes
from .plan import Plan, make_plan
from .tasks.registry import Registry

SYLLABUS_COPY = "syllabus.json"


@dataclass(frozen=True)
class RunRequest:
    """Everything one run needs, as plain values (it may cross processes)."""

    syllabus: str
    agent: str
    run_dir: str
    seed: int = 0
    agent_args: dict[str, Any] = field(default_factory=dict)
    resume: bool = False
    force: bool = False
    checkpoint_every: int = 100
    command: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunOutcome:
    run_dir: str
    episodes: int
    #: complete, stopped (Ctrl-C, resumable)
    status: str
    resumed_from: int = 0


class _Interrupt:
    """The first Ctrl-C asks the loop to stop after the episode in progress (and checkpoint);
    a second one stops at once (the last checkpoint still resumes)."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True


def prepare_dir(request: RunRequest) -> Path:
    """The run folder, checked against --force / --resume and known to be writable."""
    run_dir = Path(request.run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError("exists and is not a folder", str(run_dir))
    busy = run_dir.is_dir() and any(run_dir.iterdir())
    if busy and not request.resume:
        if not request.force:
            raise RunError("exists; pass --resume to go on with it or --force to replace it", str(run_dir))
        if manifest.read(run_dir) is None:
            raise RunError("is not a sylla run (no run.json); sylla run replaces only its own runs", str(run_dir))
        shutil.rmtree(run_dir)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / ".sylla-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise RunError(f"cannot write: {exc.strerror or exc}", str(run_dir)) from None
    return run_dir


def run_one(request: RunRequest, progress: Callable[[int, int], Callable[[int], None]] | None = None,
            started: Callable[[Path], None] | None = None) -> RunOutcome:
    """Run (or resume) one run; `RunError` for every problem a user can cause.

    ``progress(total, done)`` returns the per-episode callback of a progress bar;
    ``started(run_dir)`` is called once l2logger's files exist, before the first episode
    (``sylla run --watch`` starts following the run there)."""
    if request.seed < 0:
        raise RunError(f"--seed must be >= 0, got {request.seed}")
    if request.checkpoint_every < 1:
        raise RunError(f"--checkpoint-every must be >= 1, got {request.checkpoint_every}")
    if request.resume and request.force:
        raise RunError("--resume and --force exclude each other")
    run_dir = prepare_dir(request)
    registry = Registry.for_run(request.syllabus)
    plan = make_plan(request.syllabus, registry)
    meta = manifest.new(request.syllabus, plan.text, request.seed, request.agent, request.agent_args, plan.episodes,
                        list(request.command))
    old = manifest.read(run_dir) if request.resume else None
    if request.resume and old is None and any(run_dir.iterdir()):
        raise RunError("no run.json: not a sylla run, nothing to resume", str(run_dir), EXIT_USAGE)
    if old is not None:
        manifest.check_same(old, meta, run_dir)
        if old.get("status") == "complete":
            return RunOutcome(str(run_dir), plan.episodes, "complete", plan.episodes)
        # the run's own command stays; each resume is added after it
        meta["resumed"] = [*old.get("resumed", []), meta["command"]]
        meta["command"] = old.get("command", meta["command"])
    envs = make_envs(plan, registry, request.seed)
    try:
        return _run(request, run_dir, plan, envs, meta, progress, started)
    finally:
        close_all(envs)


def _run(request: RunRequest, run_dir: Path, plan: Plan, envs: dict[str, Any], meta: dict[str, Any],
         progress: Callable[[int, int], Callable[[int], None]] | None,
         started: Callable[[Path], None] | None = None) -> RunOutcome:
    agent = build(request.agent, request.agent_args, request.seed)
    start = 0
    point = checkpoint.read(run_dir) if request.resume else None
    checkpoint.clean_orphans(run_dir, point)
    if point is not None:
        if point.agent_dir:
            try:
                agent.load(run_dir / point.agent_dir)
            except Exception as exc:  # the agent's own code: name the checkpoint, not a traceback
                raise RunError(f"cannot load the agent's checkpoint {point.agent_dir}: {type(exc).__name__}: {exc}",
                               str(run_dir)) from exc
        start = point.episode
    if request.resume:
        truncate_to(run_dir, point.log_sizes if point is not None else {})
    shutil.copyfile(request.syllabus, run_dir / SYLLABUS_COPY)
    meta["status"] = "running"
    manifest.write(run_dir, meta)
    scenario = {"author": "sylla run", "complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom",
                "syllabus": Path(request.syllabus).stem, "agent": request.agent, "seed": request.seed}
    log = RunLog(run_dir, scenario)
    if point is not None:
        log.files.update(point.log_sizes)
    if started is not None:
        try:
            started(run_dir)
        except BaseException:
            log.close()
            raise
    tick = progress(plan.episodes, start) if progress is not None else (lambda done: None)
    interrupt = _Interrupt()
    previous = signal.signal(signal.SIGINT, interrupt) if _main_thread() else None

    def save(next_episode: int) -> None:
        checkpoint.write(run_dir, next_episode, log.sizes(), agent)

    status = "failed"
    try:
        if point is None:
            save(start)
        run_episodes(plan, envs, agent, log, request.seed, start, save, request.checkpoint_every,
                     lambda: interrupt.asked, tick)
        status = "complete"
    except Stop as exc:
        status = "stopped"
        return RunOutcome(str(run_dir), exc.episode, status, start)
    except KeyboardInterrupt:
        status = "stopped"
        raise
    finally:
        log.close()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        meta["status"] = status
        manifest.write(run_dir, meta)
    return RunOutcome(str(run_dir), plan.episodes, status, start)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
