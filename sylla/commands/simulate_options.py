"""``sylla simulate``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.simulate``."""

from __future__ import annotations

import argparse

from .bounds import SEED_MAX, integer, real

#: the largest --gain, --transfer and --noise: with at most 10^9 episodes (H506) every level
#: the learner reaches stays finite (10^12 x 10^12 x 10^9 is far below a float's 10^308), so
#: no reward is written as inf
PARAMETER_MAX = 1e12

EXIT_CODES = (
    (0, "the log was written"),
    (1, "the syllabus has syntax or schema errors, or schedules no episodes, or more than 10^9 (H506)"),
    (2, "usage error, a file that cannot be read, or an output that cannot be written or exists"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate", help="write the log a plausible learner would produce under a syllabus",
        description="A dry run of the metrics pipeline: learning curves rise toward saturation in train "
        "blocks and are flat with learning off; other tasks forget and gain forward transfer after "
        "each training. The log follows the syllabus schedule exactly, so 'sylla metrics --syllabus S "
        "--log LOG' runs end to end.",
    )
    p.add_argument("syllabus", metavar="SYLLABUS", help="the syllabus file")
    p.add_argument("-o", "--output-file", dest="output", required=True, metavar="LOG",
                   help="the log: a CSV file, or with --format l2logger a run directory")
    p.add_argument("-f", "--format", choices=("csv", "l2logger"), default="csv",
                   help="csv: episode,task,block_type,reward; l2logger: an l2logger 1.1 run directory")
    p.add_argument("--seed", type=integer(0, SEED_MAX), default=0, help="random seed (same seed, same log)")
    p.add_argument("--gain", type=real(0, PARAMETER_MAX), default=4.0, help="reward gained by one train block of a task")
    p.add_argument("--forgetting", type=real(0, 1), default=0.1,
                   help="share of its learned level a task loses while another task trains (0..1)")
    p.add_argument("--transfer", type=real(0, PARAMETER_MAX), default=0.1,
                   help="share of a training's gain that every other task also gains (forward transfer)")
    p.add_argument("--noise", type=real(0, PARAMETER_MAX), default=0.1, help="standard deviation of the per-episode noise")
    p.add_argument("--force", action="store_true", help="overwrite an existing output")
