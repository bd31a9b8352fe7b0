"""``sylla compare``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.compare``."""

from __future__ import annotations

import argparse
import math

from .bounds import SEED_MAX, integer, real

#: the most bootstrap resamples: the intervals stop moving long before (rliable's default is
#: 50,000), and the draws cost time and memory in proportion
MAX_REPS = 10_000_000

EXIT_CODES = (
    (0, "the comparison was computed"),
    (1, "bad input: rows that cannot be compared (the message says why)"),
    (2, "usage error: a bad option, metric, baseline group, or a folder that is not a sweep's output"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "compare", help="IQM, optimality gap, probability of improvement over a sweep's groups",
        description="Compare the groups of a `sylla sweep --out` folder the way Agarwal et al. "
                    "(2021, rliable) recommend: IQM, median, mean and optimality gap per group, "
                    "and the probability of improvement of every pair, each with a stratified "
                    "bootstrap interval (runs resampled within each task). Groups are the "
                    "sweep's group keys but --replicate; tasks are the syllabus's tasks "
                    "(lifetime metrics are one task).")
    p.add_argument("sweep_out", metavar="SWEEP_OUT", help="the --out folder of `sylla sweep`")
    p.add_argument("--metric", "-m", action="append", default=[], metavar="NAME",
                   help="compare this metric (repeatable; default: every metric with run rows)")
    p.add_argument("--normalize", default="none", metavar="BASELINE_GROUP|ste|none",
                   help="divide each task's scores by a group's mean on it, or by the STE "
                        "runs' mean performance (with --ste), or leave them")
    p.add_argument("--ste", action="append", default=[], metavar="PATH",
                   help="single-task-expert runs for --normalize ste (repeatable)")
    p.add_argument("--perf", default="reward", metavar="COLUMN",
                   help="performance column of the STE runs")
    p.add_argument("--reps", type=integer(1, MAX_REPS), default=50000, metavar="N", help="bootstrap resamples")
    p.add_argument("--seed", type=integer(0, SEED_MAX), default=0, metavar="S",
                   help="seed of the bootstrap: equal seeds give equal output")
    p.add_argument("--gamma", type=real(-math.inf, math.inf), default=1.0, metavar="G",
                   help="optimality-gap target (1 suits normalised scores)")
    p.add_argument("--bca", action="store_true",
                   help="BCa intervals of the aggregates as well (scipy.stats.bootstrap; slower)")
    p.add_argument("--replicate", default="seed", metavar="KEY",
                   help="the group key whose values are runs (seeds), not groups")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write compare.txt, compare.json, compare.csv and PNG plots here")
    p.add_argument("--format", "-f", default="text", choices=("text", "json", "csv"),
                   help="what stdout shows")
