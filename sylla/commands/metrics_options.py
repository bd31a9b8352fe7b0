"""``sylla metrics``' options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.metrics``."""

from __future__ import annotations

import argparse

from sylla.metrics.readers import FORMATS  # the readers' registry: it imports only the standard library

EXIT_CODES = (
    (0, "metrics computed (warnings, if any, are printed on stderr)"),
    (1, "the data cannot be turned into metrics: a bad or unreadable row, NaN/inf/text "
        "performance, a missing or uninterpretable column, a log that disagrees with its "
        "syllabus, an invalid syllabus, a duplicate episode with --duplicates error"),
    (2, "usage: unknown or invalid option or -P value, a file or directory that does not "
        "exist or cannot be opened, a directory of no known log format"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "metrics", help="compute lifelong-learning metrics from a log",
        description="Map a syllabus onto logged performance and compute the reference, "
                    "l2metrics-compatible and GEM metrics (formulas and sources: "
                    "docs/metrics.md).")
    p.add_argument("path", nargs="?", metavar="LOG", help="the log, as --log/-l takes it "
                   "(either spelling works)")
    p.add_argument("--syllabus", "-s", metavar="S", help="the syllabus that produced the log "
                   "(default: none; structured logs are then split by their own blocks)")
    p.add_argument("--log", "-l", metavar="L", help="a reward log (CSV/TSV/JSONL/Parquet), an "
                   "l2logger directory, a learnkit directory, or continual-imitation "
                   "training_log.log files (a file, an experiment folder or a root; "
                   "-P iscil_filter=SUBSTR) (required unless --list)")
    p.add_argument("--log-format", default="auto", metavar="FMT",
                   choices=FORMATS,
                   help=f"override format detection: {', '.join(FORMATS)} (default: auto)")
    p.add_argument("--ste", action="append", default=[], metavar="PATH",
                   help="single-task-expert run, or a directory of runs such as l2logger "
                        "STE runs side by side (repeatable; default: none)")
    p.add_argument("--ste-store", metavar="DIR", help="store the STE data given with --ste "
                   "here (default: not stored)")
    p.add_argument("--ste-store-format", default="parquet", choices=("parquet", "csv"),
                   help="file format for --ste-store (default: parquet)")
    p.add_argument("--perf", default=None, metavar="COLUMN",
                   help="performance column (default: the first of an l2logger log's "
                        "metrics_columns, else reward)")
    p.add_argument("--format", "-f", default="text",
                   choices=("text", "json", "csv", "parquet", "l2metrics"),
                   help="output format (default: text); l2metrics writes l2metrics 3.1.0's "
                        "<name>_metrics.json and <name>_regime.tsv into --out (default: .)")
    p.add_argument("--name", metavar="NAME", help="with --format l2metrics: the files' base "
                   "name (l2metrics' -o; default: the log folder's name)")
    p.add_argument("--out", "-o", metavar="DIR", help="write outputs (and plots) into DIR "
                   "(default: standard output)")
    p.add_argument("--plots", action="store_true", help="write PNG learning curves and the "
                   "transfer matrix (into --out DIR, default ./metrics-plots)")
    p.add_argument("--param", "-P", action="append", default=[], metavar="NAME=VALUE",
                   help="set a metric parameter (see --list for names and defaults), e.g. "
                        "-P s=0.2 -P aggregation=median (repeatable)")
    p.add_argument("--metric", "-m", action="append", default=[], metavar="NAME",
                   help="run only these metric plugins (repeatable; default: all)")
    p.add_argument("--allow-partial", action="store_true",
                   help="accept a log that ends early or has suspect rows that can still be "
                        "read unambiguously, mark the metrics it affects and warn "
                        "(default: such logs are errors)")
    p.add_argument("--duplicates", default="warn", choices=("warn", "error"),
                   help="an episode logged twice with different values in a plain log: warn "
                        "and average, or stop with an error (default: warn)")
    p.add_argument("--l2metrics-compat", action="store_true",
                   help="in variant-agnostic mode, match STE runs and -d range keys to a task "
                        "by name prefix as l2metrics 3.1.0 does (task 'ab' then also takes "
                        "'abc_y''s); default: exact base names (docs/metrics.md)")
    p.add_argument("--list", action="store_true", help="list metric plugins and parameters")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar "
                   "(default: shown on a terminal for runs that take over about a second)")
    p.add_argument("--trials", metavar="DIR", help="--log is a wave-3 delivery folder: draw its learning curves "
                   "against the trial files in DIR (json/)")
