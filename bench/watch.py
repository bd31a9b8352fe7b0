"""Benchmark ``sylla watch``: one update after appending 1 % more rows to a 1M-episode log,
against a full ``sylla metrics`` on the whole log in the same run; and the follower's CPU use
while nothing is written.

The log is a plain CSV (``episode,task,reward``) under a two-task syllabus of 1,000,000
episodes (train and test blocks of both tasks), the shape ``sylla simulate`` writes; with
``--format l2logger``, the same schedule as an l2logger run folder (`sylla.metrics.synth`)
whose last block's ``data-log.tsv`` gets the last 1 %.
Full: ``compute_metrics`` on the finished log (what ``sylla metrics --allow-partial
--format json`` does after start-up). Update: the follower's `refresh` after the last 1 %
(10,000 rows) is appended: sync the mirror (copies only the new bytes), parse, check and align
only those rows (`metrics/watch/incremental.py`), then run the metric plugins on the aligned
run, which take each finished block's values from what the last computation kept
(`metrics/memo.py`); the plugins' own time on the whole run without that memo is printed one
by one. Target (issue 25): update <= 5 % of full. Idle: process CPU seconds over 5 s of
waiting on filesystem events with nothing written.

    .venv/bin/python bench/watch.py [--episodes N] [--format csv|l2logger] [--workers K]
        [--rows R] [--ste] [--phases K] [--append N] [--data-range] [--idle S] [--shares-only]

``--phases K`` schedules K phases instead of two (a train block, then a test block of each
task), so the run has 3K block folders for each worker: the per-update cost that grows with the
number of files and blocks (listing, finished files, per-block records) shows there.

The update is handed the paths the file system's events would name for the appends (the files
written, the folders made), as the live follower hands them to its refresh. Before the appends
the follower re-syncs once without events, untimed, as it does after 2 s of silence: the check
of every file that it makes every 10 s (`mirror.RECHECK_NS`) falls there when reading the log
took longer, and its CPU is printed apart. ``--append N`` appends N experiences instead of 1 %
(the same N over several ``--episodes`` shows what grows with the log); ``--data-range``
normalises with a fixed range, so that no appended row moves a task's range and no update
scales a task anew (docs/watch.md, "a fixed range"). ``--idle S`` waits
S seconds before the update, as the follower waits for its events: on a machine whose idle
cores serve others, the update then finds its memory out of the caches and costs more CPU.

``--shares-only`` times the update and the full run alone (one line: their CPU times and the
share), for best-of-N runs of every shape against another checkout's code. Both run with one
OpenBLAS thread, as the console script runs them.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

# one OpenBLAS thread, set before numpy loads it, as the ``sylla`` console script sets it
# (`sylla.cli._one_blas_thread`): a threaded dot product's idle threads spin for a tenth of a
# second after it, CPU that neither ``sylla watch`` nor ``sylla metrics`` spends
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

if TYPE_CHECKING:
    from sylla.metrics.result import MetricsResult
    from sylla.metrics.watch.follow import Follower


def _plan(episodes: int, phases: int | None = None) -> list:
    """The schedule as blocks (type, [(task, episodes)]): by default two phases (train a task,
    test both); ``phases``: that many, the train blocks taking turns between the two tasks, a
    run of many block folders (issue 40)."""
    if phases is None:
        train, test = int(episodes * 0.4), int(episodes * 0.05)
        return [("train", [("Pong", train)]), ("test", [("Pong", test)]),
                ("test", [("Breakout", test)]), ("train", [("Breakout", train)]),
                ("test", [("Pong", test)]), ("test", [("Breakout", test)])]
    train, test = int(episodes * 0.8 / phases), int(episodes * 0.1 / phases)
    plan: list = []
    for k in range(phases):
        plan += [("train", [(("Pong", "Breakout")[k % 2], train)]), ("test", [("Pong", test)]),
                 ("test", [("Breakout", test)])]
    return plan


def _syllabus(path: Path, episodes: int, phases: int | None = None) -> None:
    instructions: list = []
    plan = _plan(episodes, phases)
    for k in range(len(plan) // 3):
        (train_task, train), = plan[3 * k][1]
        instructions += [{"$phase": f"{k + 1}.train"},
                         {"$repeat": {"$episode": train_task}, "count": train},
                         {"$phase": f"{k + 1}.test"}, {"$info": {"disable_updates": True}}]
        for _, [(task, test)] in plan[3 * k + 1:3 * k + 3]:
            instructions.append({"$repeat": {"$episode": task}, "count": test})
        instructions.append({"$info": {}})
    path.write_text(json.dumps({"name": "bench", "author": "bench", "contains": "episodes",
                                "default_params": {}, "instructions": instructions}, indent=1))


def _rows(episodes: int, phases: int | None = None) -> list[bytes]:
    tasks = [task for _, [(task, n)] in _plan(episodes, phases) for _ in range(n)]
    rewards = np.random.default_rng(0).normal(3.0, 0.5, len(tasks))
    return [f"{i},{t},{r:.4f}\n".encode() for i, (t, r) in enumerate(zip(tasks, rewards))]


def _l2logger(tmp: Path, episodes: int, workers: int = 1, rows: int = 1,
              phases: int | None = None,
              appended: int | None = None) -> tuple[Path, list[tuple[Path, bytes]]]:
    """The same schedule as an l2logger run (`sylla.metrics.synth`, one task per block
    folder; ``workers`` dealt each block's experiences in turns, ``rows`` up to that many rows
    per experience), written whole to a side folder and copied without its last 1 % of
    experiences (``appended``: that many instead): the run folder, and each data file with the
    rows still to append to it (a block begun after the cut: its header too, and its folder is
    made as it is appended)."""
    import shutil

    from sylla.metrics.synth import write_l2logger

    source = write_l2logger(tmp / "source", _plan(episodes, phases), workers=workers,
                            rows_per_exp=rows, deal="turns")
    run = tmp / "run"
    shutil.copytree(source, run)
    cut = episodes - (episodes // 100 if appended is None else appended)
    grows = []
    for data in sorted(run.rglob("data-log.tsv")):
        head, *lines = data.read_bytes().splitlines(True)
        keep = [line for line in lines if int(line.split(b"\t", 2)[1]) < cut]
        if not keep:  # a block not begun at the cut: l2logger makes its folder with its first row
            data.unlink()
            data.parent.rmdir()
            grows.append((data, head + b"".join(lines)))
        elif len(keep) < len(lines):
            data.write_bytes(head + b"".join(keep))
            grows.append((data, b"".join(lines[len(keep):])))
    return run, grows


def _ste(tmp: Path, episodes: int, rows: int) -> list[str]:
    """One STE run per task (a single train block of each), for ``--ste``."""
    from sylla.metrics.synth import write_l2logger

    train = int(episodes * 0.4)
    return [str(write_l2logger(tmp / f"ste_{task}", [("train", [(task, train // 10)])],
                               seed=k + 1, rows_per_exp=rows))
            for k, task in enumerate(("Pong", "Breakout"))]


def _data_range(tmp: Path) -> str:
    """A data-range file (l2metrics' ``-d``) giving both tasks one range, wider than any value
    the bench writes (rewards of a rising curve with noise, `sylla.metrics.synth`)."""
    path = tmp / "data-range.json"
    path.write_text(json.dumps({task: {"min": -50.0, "max": 50.0} for task in ("Pong", "Breakout")}))
    return str(path)


def _events(grows: list[tuple[Path, bytes]], new_folders: set[Path]) -> list[str]:
    """The paths the file system's events name for the appends: each file written and each
    folder made (watchfiles on inotify names these; `tests/metrics/watch/test_events.py`
    follows a run through real notifications and checks that what they name is enough). The
    follower hands them to its refresh (`Follower.changes`), which then looks at no other
    file whose stamp it trusts."""
    return [str(path) for path in sorted(new_folders)] + [str(path) for path, _ in grows]


def _full_checks(follower: "Follower") -> int:
    """How many times the follower's mirror read every file whatever its stamp (0 for a
    checkout whose mirror does not count them)."""
    return getattr(follower.mirror, "full_checks", 0)


def _plugin_times(result: "MetricsResult") -> dict[str, float]:
    """Seconds each metric plugin takes on the whole aligned run, in the pipeline's order and
    sharing one context as the pipeline does (the first l2metrics-named plugin pays the
    smoothing the others reuse): what an update still pays after reading, checking and
    aligning only the appended rows."""
    from sylla.metrics.registry import Context

    times = {}
    ctx = Context(run=result.runs[0], ste={}, params=result.params)
    for plugin in result.plugins:
        start = time.perf_counter()
        list(plugin.compute(ctx))
        times[plugin.name] = time.perf_counter() - start
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=1_000_000)
    parser.add_argument("--format", choices=("csv", "l2logger"), default="csv",
                        help="the log's shape: a plain CSV, or an l2logger run folder whose "
                        "last block's data-log.tsv grows")
    parser.add_argument("--workers", type=int, default=1,
                        help="l2logger: workers sharing the run (each block dealt in turns)")
    parser.add_argument("--rows", type=int, default=1,
                        help="l2logger: up to this many rows per experience")
    parser.add_argument("--ste", action="store_true", help="l2logger: with STE runs")
    parser.add_argument("--phases", type=int, help="this many phases (a train block and a "
                        "test block of each task each) instead of two: a run of many blocks")
    parser.add_argument("--append", type=int, help="experiences appended before the update "
                        "(default: 1 %% of --episodes): with a fixed number and several "
                        "--episodes, how the update grows with the log")
    parser.add_argument("--data-range", action="store_true",
                        help="normalise with a fixed data range (l2metrics' -d, "
                        "-P data_range=FILE), as a user following a run can: no "
                        "appended value moves a task's range, so no update scales a task's "
                        "finished blocks anew")
    parser.add_argument("--idle", type=float, default=0.0,
                        help="seconds the process waits between the appends and the update "
                        "(the live follower waits for its events' debounce, 50-200 ms: on a "
                        "machine whose idle cores serve others, the update then finds its "
                        "memory out of the caches)")
    parser.add_argument("--shares-only", action="store_true",
                        help="time the update and the full run only (no recompute from the "
                        "mirror, no plugin times, no idle wait): for best-of-N runs")
    args = parser.parse_args()
    from sylla.metrics.memo import BlockMemo
    from sylla.metrics.result import compute_metrics
    from sylla.metrics.watch.follow import Follower
    from sylla.metrics.watch.state import Options

    appended = args.episodes // 100 if args.append is None else args.append
    with tempfile.TemporaryDirectory() as tmp:
        syllabus = Path(tmp) / "syllabus.json"
        _syllabus(syllabus, args.episodes, args.phases)
        params = {"data_range": _data_range(Path(tmp))} if args.data_range else {}
        if args.format == "csv":
            log = Path(tmp) / "rewards.csv"
            rows = _rows(args.episodes, args.phases)
            head, cut = b"episode,task,reward\n", len(rows) - appended
            log.write_bytes(head + b"".join(rows[:cut]))
            grows = [(log, b"".join(rows[cut:]))]
        else:
            log, grows = _l2logger(Path(tmp), args.episodes, args.workers, args.rows,
                                   args.phases, appended)
        ste = _ste(Path(tmp), args.episodes, args.rows) if args.ste else []
        options = Options(syllabus=str(syllabus), ste=ste, params=params)
        follower = Follower(log, options)
        # the update as it was before issue 25 item 1: recomputed from the mirror with
        # nothing kept (the same appended rows, on a second follower, so the two are timed in
        # one run)
        before = None if args.shares_only else Follower(log, options)
        if before is not None and before.incremental is not None:
            before.incremental.close()
            before.incremental = None
        # the follower's re-sync after 2 s without events, untimed: it makes the check of
        # every file the follower makes every 10 s whichever sync comes (`RECHECK_NS`), due
        # here when reading the log took longer than that. One update in 10 s pays it, so
        # it is timed apart, not in the update (it fell on the update of the larger shapes
        # on a slow day: 40-70 ms or 220 ms, issue 40)
        checks = _full_checks(follower)
        cpu_start = time.process_time()
        follower.refresh()
        check_cpu = time.process_time() - cpu_start if _full_checks(follower) > checks else None
        new_folders = {path.parent for path, _ in grows if not path.parent.exists()}
        for path, rest in grows:
            path.parent.mkdir(exist_ok=True)
            with open(path, "ab") as handle:
                handle.write(rest)
        events = _events(grows, new_folders)
        time.sleep(args.idle)
        recompute = 0.0
        if before is not None:
            before.memo = BlockMemo()
            start = time.perf_counter()
            before.refresh()
            recompute = time.perf_counter() - start
            assert before.last_update == "full"
            before.close()
        checks = _full_checks(follower)
        start, cpu_start = time.perf_counter(), time.process_time()
        state = follower.refresh(events=events)
        update, update_cpu = time.perf_counter() - start, time.process_time() - cpu_start
        made_check = _full_checks(follower) > checks
        assert state.error is None and state.progress.complete, state.error
        start, cpu_start = time.perf_counter(), time.process_time()
        full = compute_metrics(log, str(syllabus), ste=ste, params=params, allow_partial=True,
                               progress=False)
        full_time, full_cpu = time.perf_counter() - start, time.process_time() - cpu_start
        assert full.to_json() == state.document
        made = follower.last_update + (" with the 10 s full check" if made_check else "")
        apart = "" if check_cpu is None else f"; the 10 s check apart: cpu {check_cpu:.3f} s"
        if args.shares_only:
            follower.close()
            print(f"shares-only: update {made} cpu {update_cpu:.3f} s full cpu {full_cpu:.3f} s "
                  f"share {update_cpu / full_cpu:.1%}; load {os.getloadavg()[0]:.2f}{apart}")
            return 0
        plugin_times = _plugin_times(full)
        points = len(state.points)
        stop = threading.Event()
        thread = threading.Thread(target=lambda: [None for _ in follower.changes(stop)])
        thread.start()
        time.sleep(0.5)
        cpu, wall = time.process_time(), time.perf_counter()
        time.sleep(5)
        idle_cpu, idle_wall = time.process_time() - cpu, time.perf_counter() - wall
        stop.set()
        thread.join()
        follower.close()
    load = os.getloadavg()[0]
    shape = (f"{args.format}, {args.workers} worker(s), up to {args.rows} row(s) per "
             f"experience, {'with' if ste else 'without'} STE runs")
    print(f"{shape}{', a fixed data range' if params else ''}: episodes: {args.episodes:,}; "
          f"appended: {appended:,} experiences ({appended / args.episodes:.1%})")
    print(f"full sylla metrics: {full_time:.2f} s; watch update ({made}): {update:.2f} s; "
          f"ratio {update / full_time:.1%} (target <= 5 %)")
    print(f"in CPU time (less shaken by other processes on a busy machine): full "
          f"{full_cpu:.2f} s; update {update_cpu:.3f} s; ratio {update_cpu / full_cpu:.1%}"
          f"{apart}")
    print(f"the same update recomputed from the mirror (before): {recompute:.2f} s, "
          f"{recompute / full_time:.1%} of full")
    print(f"curve points kept for the page: {points:,} (down-sampled; one per episode before)")
    plugins = sum(plugin_times.values())
    print(f"metric plugins alone on the aligned run: {plugins:.2f} s ({plugins / full_time:.1%} "
          "of full): " + ", ".join(f"{k} {v:.3f} s" for k, v in
                                   sorted(plugin_times.items(), key=lambda kv: -kv[1])))
    print(f"idle: {idle_cpu:.3f} CPU s over {idle_wall:.1f} s wall ({idle_cpu / idle_wall:.2%} "
          f"of a core); load average {load:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
