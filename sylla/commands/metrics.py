"""``sylla metrics``: compute lifelong-learning metrics from a log (and its syllabus); with
``--trials``, the learning curves of a wave-3 delivery. Its options are in ``metrics_options``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sylla.metrics.errors import EXIT_USAGE, MetricsError
from sylla.metrics.registry import load_plugins
from sylla.metrics.report import write_outputs
from sylla.metrics.result import compute_metrics

from .hints import folder_of_runs, syllabus_given_as_log
from .params import metric_params


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
    if getattr(args, "trials", None):
        return metrics_trials(args)
    plugins = load_plugins()
    if args.list:
        sys.stdout.write(_list(plugins))
        return 0
    if not args.log:
        raise MetricsError("--log is required (or --list)", exit_code=EXIT_USAGE)
    params = metric_params(args.param)
    if args.l2metrics_compat:
        params["l2metrics_compat"] = "true"
    result = compute_metrics(
        args.log, args.syllabus, ste=args.ste, ste_store=args.ste_store,
        ste_store_format=args.ste_store_format, perf=args.perf, log_format=args.log_format,
        params=params, allow_partial=args.allow_partial, plugins=plugins,
        only=args.metric or None, progress=False if args.no_progress else None,
        duplicates=args.duplicates)
    out = Path(args.out) if args.out else None
    if args.format == "l2metrics":
        from sylla.metrics.l2m_output import write_l2metrics  # noqa: PLC0415 - lazy: start-up, pandas loads only with --format l2metrics

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
        from sylla.metrics.plots import write_plots  # noqa: PLC0415 - lazy: start-up, the plot writer loads only with --plots

        written = write_plots(result, (out or Path("metrics-plots")) / "plots")
        print(f"sylla: wrote {len(written)} plot(s) to {written[0].parent if written else out}",
              file=sys.stderr)
    if args.format != "text":
        for warning in result.warnings:
            print(f"sylla: warning: {warning}", file=sys.stderr)
    return 0


def metrics_trials(args: argparse.Namespace) -> int:
    """``sylla metrics --log DELIVERY_DIR --trials json/``: learning curves of a wave-3 delivery."""
    from sylla.metrics.learning_curves import compute, render_text, tidy, write_plots  # noqa: PLC0415 - lazy: start-up, pandas loads only with --trials
    from sylla.metrics.readers.deliveries import read_trials  # noqa: PLC0415 - lazy: as above

    data = read_trials(args.log, args.trials)
    tables = compute(data)
    long = tidy(tables)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    if args.format == "text":
        text = render_text(data, tables)
        print(text)
        if out is not None:
            (out / "learning_curves.txt").write_text(text + "\n", encoding="utf-8")
    elif args.format == "json":
        doc = {"derived_predictions": data.derived, "notes": data.notes, "bad_rows": data.bad,
               "rows": json.loads(long.to_json(orient="records"))}
        text = json.dumps(doc, indent=2)
        (out / "learning_curves.json").write_text(text + "\n") if out else print(text)
    elif args.format == "csv":
        (long.to_csv(out / "learning_curves.csv", index=False) if out else sys.stdout.write(long.to_csv(index=False)))
    else:
        target = (out or Path(".")) / "learning_curves.parquet"
        long.to_parquet(target, index=False)
        print(f"sylla: wrote {target}", file=sys.stderr)
    if args.format != "text":
        for note in data.notes:
            print(f"sylla: note: {note}", file=sys.stderr)
        for name, reasons in data.bad.items():
            for reason, rows in reasons.items():
                print(f"sylla: bad rows: {name}: {len(rows)} {reason}: rows {', '.join(map(str, rows[:8]))}", file=sys.stderr)
    if args.plots:
        written = write_plots(tables, (out or Path("metrics-plots")) / "plots")
        print(f"sylla: wrote {len(written)} plot(s) to {written[0].parent}", file=sys.stderr)
    return 0
