"""``sylla run SYLLABUS --agent AGENT -o RUN_DIR``: execute a syllabus on Gymnasium environments.
Its options are in ``run_options``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import threading

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.metrics.errors import MetricsError
from sylla.runner.agents.load import parse_args
from sylla.runner.errors import RunError
from sylla.runner.grid import cells, check, parse_seeds
from sylla.runner.grid import run_grid as run_cells
from sylla.runner.run import RunRequest, run_one
from sylla.runner.tasks.errors import TaskError

if TYPE_CHECKING:
    from typing import Any, Callable

def resume_command(args: argparse.Namespace) -> str:
    words = ["sylla", "run", args.syllabus]
    for agent in args.agent:
        words += ["--agent", agent]
    for item in args.agent_arg:
        words += ["--agent-arg", item]
    words += ["-o", args.output]
    words += ["--seeds", args.seeds] if grid(args) else ["--seed", str(args.seed)]
    if args.checkpoint_every != 100:
        words += ["--checkpoint-every", str(args.checkpoint_every)]
    return shlex.join([*words, "--resume"])


def grid(args: argparse.Namespace) -> bool:
    """Whether the command runs a grid (several agents, or --seeds) rather than one run."""
    return args.seeds is not None or len(args.agent) > 1


def run(args: argparse.Namespace) -> int:
    if grid(args):
        if args.watch:
            print("sylla run: --watch follows one run; watch a grid's runs one by one with sylla watch", file=sys.stderr)
            return 2
        return run_grid(args)
    if args.jobs is not None or args.dask is not None:
        print("sylla run: --jobs and --dask run a grid: give --seeds or several --agent", file=sys.stderr)
        return 2
    if args.watch:
        return run_watched(args)
    return run_single(args)


def run_watched(args: argparse.Namespace) -> int:
    """One run with the watch page beside it (`sylla.metrics.watch.server.Background`, the
    server of ``sylla watch``), started once l2logger's files exist, before the first episode;
    the page stays up after the run until Ctrl-C."""
    try:
        import uvicorn  # noqa: F401, PLC0415 - only asks whether the watch extra is installed
        import watchfiles  # noqa: F401, PLC0415 - as above
    except ImportError:
        print("sylla run: --watch needs the watch extra: pip install 'sylla[watch]'", file=sys.stderr)
        return 2
    from sylla.metrics.watch.follow import Follower  # noqa: PLC0415 - lazy: start-up, uvicorn, starlette, watchfiles load only with --watch
    from sylla.metrics.watch.server import Background, bound_port, claim_port  # noqa: PLC0415 - lazy: as above
    from sylla.metrics.watch.state import Options  # noqa: PLC0415 - lazy: as above

    host = "127.0.0.1"
    try:
        sock = claim_port(host, args.port)
    except OSError as exc:
        print(f"sylla run: {exc}", file=sys.stderr)
        return 2
    port = bound_port(sock)
    url = f"http://{host}:{port}/"
    pages: list = []

    def started(run_dir: object) -> None:
        try:
            follower = Follower(str(run_dir), Options(syllabus=args.syllabus, log_format="l2logger"))
        except MetricsError as exc:
            raise RunError(f"--watch: {exc}") from None
        page = Background(follower, sock)
        pages.append((page, follower))
        try:
            page.start()
        except OSError as exc:
            raise RunError(f"--watch: {exc} on {url}") from None
        moved = f" (port {args.port} is in use)" if port != args.port else ""
        print(f"sylla run: watching {run_dir} on {url}{moved}", file=sys.stderr, flush=True)

    try:
        code = run_single(args, started)
        if code == 0 and pages:
            try:  # before the message: a Ctrl-C right after it is the one asked for
                print(f"sylla run: the page stays on {url} until Ctrl-C", file=sys.stderr, flush=True)
                threading.Event().wait()
            except KeyboardInterrupt:
                pass
        return code
    finally:
        for page, follower in pages:
            page.stop()
            follower.close()


def run_single(args: argparse.Namespace, started: Callable[[Any], None] | None = None) -> int:
    """One run, with its progress bar and its messages."""
    bars: list = []

    def progress(total: int, done: int):  # type: ignore[no-untyped-def]  # the bar's callback, built lazily
        from sylla.metrics.progress import Progress  # noqa: PLC0415 - lazy: rich loads only when a bar is drawn

        bar = Progress(total, "run", False if args.no_progress else None, count=True)
        bar.advance(done)
        bars.append(bar)
        return bar.advance

    try:
        request = RunRequest(args.syllabus, args.agent[0], args.output, args.seed, parse_args(args.agent_arg),
                             args.resume, args.force, args.checkpoint_every, tuple(sys.argv))
        outcome = run_one(request, progress, started)
    except TaskError as exc:  # a RunError too
        for bar in bars:
            bar.close()
        for line in str(exc).splitlines():
            print(f"sylla run: {line}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        for bar in bars:
            bar.close()
        print(f"sylla run: stopped; go on from the last checkpoint with:\n  {resume_command(args)}", file=sys.stderr)
        return 130
    for bar in bars:
        bar.close()
    if outcome.status == "stopped":
        print(f"sylla run: stopped after episode {outcome.episodes} of the run (checkpoint saved); go on with:\n"
              f"  {resume_command(args)}", file=sys.stderr)
        return 130
    note = f", resumed at episode {outcome.resumed_from}" if outcome.resumed_from else ""
    print(f"wrote {outcome.run_dir} ({outcome.episodes} episodes, agent {args.agent[0]}, seed {args.seed}{note})",
          file=sys.stderr)
    return 0


def run_grid(args: argparse.Namespace) -> int:
    """Every agent with every seed (`sylla.runner.grid`); exit 0 when every run finished, else
    the first failed run's code, after all of them ran."""
    try:
        if args.jobs is not None and args.jobs < 1:
            raise TaskError(f"--jobs must be at least 1, got {args.jobs}")
        seeds = parse_seeds(args.seeds) if args.seeds is not None else [args.seed]
        base = RunRequest(args.syllabus, args.agent[0], args.output, seeds[0], parse_args(args.agent_arg),
                          args.resume, args.force, args.checkpoint_every, tuple(sys.argv))
        check(base, args.agent)
        requests = cells(base, args.agent, seeds)
        print(f"sylla run: {len(requests)} runs ({len(dict.fromkeys(args.agent))} agents x {len(seeds)} seeds) "
              f"into {args.output}", file=sys.stderr)
        outcomes = run_cells(requests, args.jobs, args.dask)
    except TaskError as exc:
        for line in str(exc).splitlines():
            print(f"sylla run: {line}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"sylla run: stopped; go on with:\n  {resume_command(args)}", file=sys.stderr)
        return 130
    code = 0
    for o in outcomes:
        if o.error is not None:
            for line in o.error.splitlines():
                print(f"sylla run: {o.agent} seed {o.seed}: {line}", file=sys.stderr)
            code = code or o.exit_code
        else:
            print(f"wrote {o.run_dir} ({o.episodes} episodes, agent {o.agent}, seed {o.seed}, {o.status})",
                  file=sys.stderr)
    return code
