"""``sylla run``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.run``."""

from __future__ import annotations

import argparse

from .bounds import COUNT_MAX, PORT_MAX, SEED_MAX, integer
from .sweep_options import MAX_JOBS

EXIT_CODES = (
    (0, "the run finished (or, with --resume, was already finished)"),
    (1, "the syllabus has errors, or the run stopped on an environment or agent failure (the message names "
        "the episode, the task and the syllabus line; the log holds every episode before it)"),
    (2, "usage: an unknown task, parameter or agent, a value an environment refuses, an output folder that "
        "exists (without --force or --resume) or cannot be written, a missing file"),
    (130, "stopped by Ctrl-C after a checkpoint; the message gives the --resume command"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run a syllabus with an agent on Gymnasium environments",
        description="Walk the syllabus's schedule episode by episode (the schedule explain and metrics use), "
        "make each task's environment through the task registry (Gymnasium ids, the L2M $minigridkit: "
        "names, the config's [tasks] and sylla.tasks entry points), let the agent learn where the schedule "
        "allows it, and write an l2logger run with l2logger's own DataLogger into RUN_DIR, with run.json "
        "beside it. Same seed, same built-in agent: same rewards. A run killed at any moment goes on "
        "with --resume to the log an uninterrupted run writes (docs/run.md).",
    )
    p.add_argument("syllabus", metavar="SYLLABUS", help="the syllabus file")
    p.add_argument("--agent", "-a", required=True, action="append", metavar="AGENT",
                   help="random, tabular-q, sb3-ppo, sb3-dqn (the run-sb3 extra), package.module:Class, or the "
                   "name of a sylla.agents entry point; repeat it for a grid of runs (with --seeds)")
    p.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE",
                   help="an argument of the agent's constructor; VALUE is read as JSON when it parses "
                   "(repeatable; e.g. --agent-arg epsilon=0.05)")
    p.add_argument("-o", "--out", dest="output", required=True, metavar="RUN_DIR",
                   help="the run folder: the l2logger log, run.json and the checkpoints (for a grid, the "
                   "folder of its runs)")
    p.add_argument("--seed", type=integer(0, SEED_MAX), default=0, help="seed of the agent and of every episode's reset")
    p.add_argument("--seeds", metavar="SEEDS",
                   help="a grid: every agent with every seed (0-4, or 0,2,7), one run each in "
                   "OUT_DIR/<agent>/seed-<n>, the layout sylla sweep and sylla compare read as it is")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=integer(1, MAX_JOBS), metavar="N",
                       help="a grid's local worker processes (default: the number of cores), as sylla sweep")
    where.add_argument("--dask", metavar="ADDRESS",
                       help="run a grid's runs on an existing Dask cluster, e.g. tcp://host:8786, as sylla sweep")
    p.add_argument("--resume", action="store_true", help="go on with the run in RUN_DIR from its last checkpoint")
    p.add_argument("--force", action="store_true", help="replace the sylla run in RUN_DIR")
    p.add_argument("--checkpoint-every", type=integer(1, COUNT_MAX), default=100, metavar="N",
                   help="save a checkpoint every N episodes")
    p.add_argument("--watch", action="store_true",
                   help="serve the sylla watch page of the run while it runs (pip install 'sylla[watch]'); "
                   "it stays up after the run until Ctrl-C")
    p.add_argument("--port", type=integer(1, PORT_MAX), default=8765,
                   help="--watch's port on 127.0.0.1; if taken, the next free one (default: 8765)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar "
                   "(default: shown on a terminal for runs that take over about a second)")
