"""``sylla simulate SYLLABUS -o LOG``: the log a plausible learner would write under a syllabus.
Its options are in ``simulate_options``."""

from __future__ import annotations

import argparse
import os
import sys

from sylla.metrics.errors import MetricsError
from sylla.metrics.simulate import Learner, simulate_chunks, write_csv, write_l2logger
from sylla.metrics.syllabus import load_syllabus


def run(args: argparse.Namespace) -> int:
    if args.format == "l2logger" and os.path.isdir(args.output) and os.listdir(args.output):
        # old block folders would become part of the new run; sylla never deletes them for you
        print(f"sylla simulate: error: {args.output} is a non-empty directory; give a new or empty one",
              file=sys.stderr)
        return 2
    if os.path.exists(args.output) and not args.force and not os.path.isdir(args.output):
        print(f"sylla simulate: error: {args.output} exists; pass --force to overwrite it", file=sys.stderr)
        return 2
    try:
        model = load_syllabus(args.syllabus)
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code if exc.exit_code in (1, 2) else 1
    # made and written a chunk at a time: memory stays flat in the schedule's length (issue 38)
    frames = simulate_chunks(model, args.seed, Learner(args.gain, args.forgetting, args.transfer, args.noise))
    try:
        if args.format == "csv":
            write_csv(frames, args.output)
        else:
            write_l2logger(frames, args.output)
    except OSError as exc:
        print(f"sylla: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    episodes = sum(b.count for b in model.blocks)
    print(f"wrote {args.output} ({episodes} episodes, seed {args.seed})", file=sys.stderr)
    return 0
