"""``sylla watch``: follow a run as it is written; serve live metrics and syllabus conformance
to a browser, or with ``--check`` watch headless and exit at the first divergence.
Its options are in ``watch_options``; the follower and the server need the watch extra
(``pip install 'sylla[watch]'``), which `run` checks for first.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sylla.metrics.errors import EXIT_USAGE, MetricsError
from sylla.metrics.watch.state import Options

from .params import metric_params
from .watch_options import IDLE_TIMEOUT

if TYPE_CHECKING:
    from sylla.metrics.watch.follow import Follower
    from sylla.metrics.watch.state import State


def options_from(args: argparse.Namespace) -> Options:
    """`sylla.metrics.watch.state.Options` from parsed arguments; a bad -P is a usage error."""
    params = metric_params(args.param)
    return Options(syllabus=args.syllabus, ste=list(args.ste), perf=args.perf,
                   log_format=args.log_format, params=params, only=args.metric or None,
                   duplicates=args.duplicates, allow_partial=args.allow_partial)


def run(args: argparse.Namespace) -> int:
    try:
        import watchfiles  # noqa: F401, PLC0415 - only asks whether the watch extra is installed
    except ImportError:
        print("sylla: sylla watch needs its extra: pip install 'sylla[watch]'", file=sys.stderr)
        return 2

    if not Path(args.path).exists():
        print(f"sylla: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_USAGE
    if args.check and not args.syllabus:
        print("sylla: --check needs --syllabus (the schedule to check against)", file=sys.stderr)
        return EXIT_USAGE
    if args.idle_timeout is not None and not args.check:
        print("sylla: --idle-timeout needs --check (the page waits for as long as it is "
              "served)", file=sys.stderr)
        return EXIT_USAGE
    from sylla.metrics.watch.follow import Follower  # noqa: PLC0415 - optional dependency: watchfiles, which the check above asks for

    try:
        follower = Follower(args.path, options_from(args))
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        if args.check:
            idle = IDLE_TIMEOUT if args.idle_timeout is None else args.idle_timeout
            return _check(follower, idle)
        return _serve(follower, args)
    finally:
        follower.close()


def _check(follower: Follower, idle_timeout: float) -> int:
    """Print progress as it changes; stop at the first divergence, the end of the schedule,
    or after ``idle_timeout`` seconds (0: never) without a complete line."""
    outcome = {"code": 130}
    last: list[str] = []

    def on_state(state: State) -> bool:
        p = state.progress
        where = (f", phase {p.phase}" if p.phase else "") + (
            f", block {p.block}" if p.block is not None else "")
        line = f"sylla: watch: episode {p.episodes_read} of {p.episodes_planned}{where}"
        if [line] != last:
            print(line, file=sys.stderr, flush=True)
            last[:] = [line]
        if state.divergence is not None:
            print(f"sylla: {state.divergence}", file=sys.stderr, flush=True)
            if state.error is not None:  # a refused row may be where it strays: name it
                print(f"sylla: watch: the log cannot be read: {state.error}", file=sys.stderr,
                      flush=True)
            outcome["code"] = 1
            return False
        if p.complete:
            # an error while the run is written can pass (a block folder with its header
            # alone); once every planned episode is in, the log is what it will be
            if state.error is not None:
                print(f"sylla: watch: the run completed its schedule, but its log cannot be "
                      f"read: {state.error}", file=sys.stderr, flush=True)
                outcome["code"] = 1
            else:
                print("sylla: watch: the run completed its schedule", file=sys.stderr, flush=True)
                outcome["code"] = 0
            return False
        return True

    follower.follow(on_state, threading.Event(), idle_timeout or None)
    if follower.idle:
        state = follower.state
        p = state.progress
        print(f"sylla: watch: no complete line arrived for {idle_timeout:g} s "
              f"(--idle-timeout); the run stopped at episode {p.episodes_read} of "
              f"{p.episodes_planned}", file=sys.stderr, flush=True)
        if not follower.mirror.path.exists():
            print("sylla: watch: nothing was written", file=sys.stderr, flush=True)
        elif state.error is not None:
            print(f"sylla: watch: its log cannot be read: {state.error}", file=sys.stderr,
                  flush=True)
        return 1
    if outcome["code"] == 130:
        print("sylla: watch: interrupted", file=sys.stderr)
    return outcome["code"]


def _serve(follower: Follower, args: argparse.Namespace) -> int:
    from sylla.metrics.watch.server import LOOPBACK, bound_port, claim_port, serve  # noqa: PLC0415 - lazy: start-up, uvicorn, starlette load only when serving (not with --check)

    if args.host not in LOOPBACK:
        print(f"sylla: warning: serving on {args.host}: anyone who can reach this address "
              "sees the run's metrics (default: 127.0.0.1)", file=sys.stderr)
    try:
        sock = claim_port(args.host, args.port)
    except OSError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return 2
    port = bound_port(sock)
    if port != args.port:
        print(f"sylla: port {args.port} is in use; serving on {port} instead", file=sys.stderr)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    print(f"sylla: watching {args.path} on {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if args.open:
        import webbrowser  # noqa: PLC0415 - lazy: start-up, webbrowser loads only with --open

        webbrowser.open(url)
    serve(follower, sock)
    return 0
