"""``sylla metrics``: compute lifelong-learning metrics from a log (and its syllabus).

Only the standard library is imported here; numpy, pandas and matplotlib load inside `run`, so
``sylla lint`` and ``sylla explain`` never pay for them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sylla.metrics.errors import EXIT_USAGE, MetricsError
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
    p.set_defaults(run=run)


def _list(plugins: list) -> str:
    lines = []
    for plugin in plugins:
        lines.append(f"{plugin.name}: {plugin.description}")
        lines.append(f"    emits: {', '.join(plugin.emits)}")
        lines.append(f"    inputs: {', '.join(plugin.inputs)}")
        for param in plugin.parameters:
            choices = f" {{{', '.join(map(str, param.choices))}}}" if param.choices else ""
            lines.append(f"    -P {param.name}={param.default}{choices}  {param.help}")
    return "\n".join(lines) + "\n"


def _log_hint(args: argparse.Namespace) -> str | None:
    """Take the log from LOG or --log/-l (both are guesses a newcomer makes), and say in one
    line when it is the wrong kind of input: a syllabus, or a folder of runs for sylla sweep."""
    from .hints import folder_of_runs, syllabus_given_as_log  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    path = getattr(args, "path", None)
    if path and args.log and path != args.log:
        return f"the log is given twice ({path} and --log {args.log}); give one"
    args.log = args.log or path
    if not args.log or getattr(args, "trials", None):
        return None
    return syllabus_given_as_log(args.log) or (
        folder_of_runs(args.log) if args.log_format == "auto" else None)


def run(args: argparse.Namespace) -> int:

    hint = _log_hint(args)
    if hint:
        print(f"sylla: {hint}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return _run(args)
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code
    except MemoryError:
        print("sylla: out of memory while computing metrics", file=sys.stderr)
        return 1
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"sylla: {name}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    from sylla.metrics.registry import load_plugins  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if getattr(args, "trials", None):
        from sylla.commands.trials_cli import metrics_trials  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        return metrics_trials(args)
    plugins = load_plugins()
    if args.list:
        sys.stdout.write(_list(plugins))
        return 0
    if not args.log:
        raise MetricsError("--log is required (or --list)", exit_code=EXIT_USAGE)
    from .common import metric_params  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    params = metric_params(args.param)
    if args.l2metrics_compat:
        params["l2metrics_compat"] = "true"
    from sylla.metrics.report import write_outputs  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.result import compute_metrics  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    result = compute_metrics(
        args.log, args.syllabus, ste=args.ste, ste_store=args.ste_store,
        ste_store_format=args.ste_store_format, perf=args.perf, log_format=args.log_format,
        params=params, allow_partial=args.allow_partial, plugins=plugins,
        only=args.metric or None, progress=False if args.no_progress else None,
        duplicates=args.duplicates)
    out = Path(args.out) if args.out else None
    if args.format == "l2metrics":
        from sylla.metrics.l2m_output import write_l2metrics  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        # l2metrics' files hold the log's own regimes, which l2metrics computes without a
        # syllabus; the syllabus has checked the log above
        files = result if args.syllabus is None else compute_metrics(
            args.log, None, ste=args.ste, perf=args.perf, log_format=args.log_format,
            params=params, allow_partial=args.allow_partial, plugins=plugins,
            only=args.metric or None, progress=False if args.no_progress else None,
            duplicates=args.duplicates)
        for path in write_l2metrics(files, args.log, out, files.perf, args.name):
            print(f"sylla: wrote {path}", file=sys.stderr)
    else:
        write_outputs(result, args.format, out, sys.stdout)
    if args.plots:
        from sylla.metrics.plots import write_plots  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        written = write_plots(result, (out or Path("metrics-plots")) / "plots")
        print(f"sylla: wrote {len(written)} plot(s) to {written[0].parent if written else out}",
              file=sys.stderr)
    if args.format != "text":
        for warning in result.warnings:
            print(f"sylla: warning: {warning}", file=sys.stderr)
    return 0
