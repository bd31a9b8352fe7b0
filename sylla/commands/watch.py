"""``sylla watch``: follow a run as it is written; serve live metrics and syllabus conformance
to a browser, or with ``--check`` watch headless and exit at the first divergence.

Only the standard library is imported here; the follower, watchfiles and the server load
inside `run` (``pip install 'sylla[watch]'``).
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sylla.metrics.errors import EXIT_USAGE, MetricsError
from sylla.metrics.readers import FOLLOWED  # the readers' registry: it imports only the standard library

from .bounds import PORT_MAX, integer

if TYPE_CHECKING:
    from sylla.metrics.watch.follow import Follower
    from sylla.metrics.watch.state import Options

#: seconds ``--check`` waits for a complete line before it gives up on the run: half the 10
#: minutes without output after which Travis CI and CircleCI stop a job, so that the check's
#: own reason is printed first; far above the pause of a healthy run between two episodes
IDLE_TIMEOUT = 300.0

EXIT_CODES = (
    (0, "--check: the run completed its schedule; without --check: the server was stopped"),
    (1, "--check: the run diverged from its syllabus (episode, expected, found and the "
        "syllabus file:line are printed), or it completed its schedule with a log that cannot "
        "be read (the reader's error, with file and row, is printed), or no complete line "
        "arrived for --idle-timeout seconds before the schedule was complete (where the run "
        "stopped is printed, and the reader's error if the log cannot be read); an invalid "
        "syllabus"),
    (2, "usage: a bad option, a log that does not exist, --check without --syllabus, no free "
        "port, sylla[watch] not installed"),
)


def add_metric_options(p: argparse.ArgumentParser) -> None:
    """The options of ``sylla metrics`` that decide the numbers (shared with ``sylla report``)."""
    p.add_argument("--syllabus", "-s", metavar="S", help="the syllabus the run follows: "
                   "enables conformance checks and progress against the schedule "
                   "(default: none)")
    p.add_argument("--log-format", default="auto", metavar="FMT",
                   choices=FOLLOWED,
                   help=f"override format detection: {', '.join(FOLLOWED)} (default: auto)")
    p.add_argument("--ste", action="append", default=[], metavar="PATH",
                   help="single-task-expert run, as sylla metrics takes it (repeatable)")
    p.add_argument("--perf", default=None, metavar="COLUMN", help="performance column "
                   "(default: the first of an l2logger log's metrics_columns, else reward)")
    p.add_argument("--param", "-P", action="append", default=[], metavar="NAME=VALUE",
                   help="set a metric parameter, as sylla metrics -P (repeatable)")
    p.add_argument("--metric", "-m", action="append", default=[], metavar="NAME",
                   help="compute only these metric plugins (repeatable; default: all)")
    p.add_argument("--duplicates", default="warn", choices=("warn", "error"),
                   help="an episode logged twice in a plain log: warn or error (default: warn)")
    p.add_argument("--allow-partial", action="store_true", help="as sylla metrics "
                   "--allow-partial (always on with --syllabus: a run being written is partial)")


def options_from(args: argparse.Namespace) -> Options:
    """`sylla.metrics.watch.state.Options` from parsed arguments; a bad -P is a usage error."""
    from sylla.metrics.watch.state import Options  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    from .common import metric_params  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    params = metric_params(args.param)
    return Options(syllabus=args.syllabus, ste=list(args.ste), perf=args.perf,
                   log_format=args.log_format, params=params, only=args.metric or None,
                   duplicates=args.duplicates, allow_partial=args.allow_partial)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "watch", help="follow a run as it is written: live metrics and syllabus conformance "
                      "in a browser",
        description="Follow a growing log (l2logger, learnkit, continual-imitation "
                    "training_log.log, CSV/TSV) and serve its metrics, learning curves and "
                    "conformance to its syllabus on a local page; --check watches headless. "
                    "Needs pip install 'sylla[watch]' (docs/watch.md).")
    p.add_argument("path", metavar="RUN", help="the log being written: a file or a run folder")
    add_metric_options(p)
    p.add_argument("--check", action="store_true", help="headless: print progress on stderr, "
                   "exit 1 at the first divergence from --syllabus, 0 when the schedule is "
                   "complete")
    p.add_argument("--idle-timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="with --check: exit 1 when no complete line arrives for this long "
                        "before the schedule is complete (a run that crashed or hangs); 0 "
                        f"waits for ever (default: {IDLE_TIMEOUT:g}, half the 10 minutes "
                        "without output after which Travis CI and CircleCI stop a job)")
    p.add_argument("--port", type=integer(1, PORT_MAX), default=8765, help="port to serve on; if taken, the "
                   "next free one is used and said (default: 8765)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind; anything but "
                   "loopback prints a warning (default: 127.0.0.1)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=run)


def _seconds(text: str) -> float:
    """A finite, non-negative number of seconds (argparse's type for --idle-timeout)."""

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (wait for ever) or a positive number of "
                                         f"seconds, got {text!r}")
    return value


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
    try:
        from sylla.metrics.watch.follow import Follower  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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
    from sylla.metrics.watch.follow import Follower  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.watch.state import State  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    assert isinstance(follower, Follower)
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
    from sylla.metrics.watch.server import LOOPBACK, free_port, serve  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if args.host not in LOOPBACK:
        print(f"sylla: warning: serving on {args.host}: anyone who can reach this address "
              "sees the run's metrics (default: 127.0.0.1)", file=sys.stderr)
    try:
        port = free_port(args.host, args.port)
    except OSError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return 2
    if port != args.port:
        print(f"sylla: port {args.port} is in use; serving on {port} instead", file=sys.stderr)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    print(f"sylla: watching {args.path} on {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if args.open:
        import webbrowser  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        webbrowser.open(url)
    serve(follower, args.host, port)
    return 0
