"""``sylla watch``'s options (the standard library only: see ``sylla.cli``), and the options
that decide the numbers, which ``sylla report`` shares; the command is ``sylla.commands.watch``."""

from __future__ import annotations

import argparse
import math

from sylla.metrics.readers import FOLLOWED  # the readers' registry: it imports only the standard library

from .bounds import PORT_MAX, integer

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
