"""``sylla lint``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.lint``."""

from __future__ import annotations

import argparse

EXIT_CODES = (
    (0, "no finding at or above --fail-on (non-syllabi are skipped without a finding)"),
    (1, "findings at or above --fail-on"),
    (2, "usage error, bad config, or a file that cannot be read or written"),
)


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser(
        "lint", help="check syllabi against the phase, type and hygiene rules",
        description="Lint syllabi: syntax and schema, phase annotations, the rules of the syllabus "
        "type, test hygiene. Only syllabi are linted; other JSON files are skipped.",
    )
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .); - reads stdin")
    p.add_argument("-f", "--format", choices=("text", "json", "sarif", "github"), default="text",
                   help="report format: text for people, json for tools, sarif for code scanning, github for workflow annotations")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    p.add_argument("--diff", action="store_true", help="show the fixes as a diff without writing")
    p.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --diff: also apply the fixes that change the experiment (e.g. T410 adding "
                   "missing transfer-matrix tests); without it they are only offered in the editor")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="warning", help="lowest severity that fails")
    p.add_argument("--profile", choices=("l2m", "pretest"),
                   help="rule profile: l2m follows the reference text; pretest also allows a leading 0.test "
                   "(pre-training evaluation). Default: the config's, else l2m")
    p.add_argument("--type", choices=("CL", "ANT-A", "ANT-B", "ANT-C", "STE"),
                   help="lint every file as this syllabus type (CL, ANT-A/B/C, STE: single-task expert), "
                   "overriding the file's syllabus_type, per-file-types and inference")
    p.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to run (e.g. P3,T401)")
    p.add_argument("--ignore", metavar="CODES", help="comma-separated codes or prefixes to skip")
    p.add_argument("--registry", metavar="FILE", help='task registry for the R7xx rules: a TOML or JSON file, or "gymnasium" (the tasks sylla run can make)')
    p.add_argument("--require-metric", action="append", metavar="NAME",
                   help="a metric the syllabus must be able to yield (repeatable; adds to the config's "
                   "metrics = [...]); each one it cannot yield is an M901 finding")
    p.add_argument("--config", metavar="FILE", help="use this sylla.toml/pyproject.toml instead of discovery")
    p.add_argument("--stdin-filename", metavar="NAME",
                   help="with -: the name to report for standard input, and where to look for its config")
    p.add_argument("--trials", metavar="DIR", help="check PATH as a wave-3 delivery folder (predictions.csv, bests.csv, "
                   "samples.csv, description.md) against the trial files in DIR (json/)")
