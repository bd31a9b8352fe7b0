"""Run l2metrics 3.1.0 on one log and print its numbers as JSON (full float precision).

This script runs in the separate l2metrics venv (``.venv-l2m``), never in sylla's: l2metrics pins
old libraries. STE runs are stored into a private ``$L2DATA`` first (l2metrics keeps them as
pickles there; sylla never reads them). Usage:
``python l2m_driver.py LOG_DIR [--ste DIR]... [--opt KEY=VALUE]... [--summary]``

``python l2m_driver.py --serve`` answers many such runs in one process, so that l2metrics'
import (two CPU seconds: pandas, matplotlib, scipy) is paid once, not once per run: each line
of standard input is a JSON object ``{"argv": [LOG_DIR, ...], "l2data": DIR}`` (the arguments
above, and the run's own ``$L2DATA``, which l2metrics reads on every call), each answer one
JSON line on the original standard output (file descriptor 1 is pointed at standard error, so
what a C library prints cannot mix with the answers).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import tempfile
from pathlib import Path


def _clean(value):
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    try:
        f = float(value)
    except (TypeError, ValueError):
        return value
    return None if math.isnan(f) or math.isinf(f) else f


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("log_dir")
    parser.add_argument("--ste", action="append", default=[])
    parser.add_argument("--opt", action="append", default=[])
    parser.add_argument("--summary", action="store_true", help="print only lifetime values")
    return parser


def _quiet() -> None:
    logging.disable(logging.CRITICAL)
    import warnings

    warnings.simplefilter("ignore")
    import numpy as np

    # numpy 2 removed the np.NaN alias that l2metrics 3.1.0 still uses on every path that
    # yields NaN (a task with no recovery time, say); restore the alias, nothing else.
    if "NaN" not in np.__dict__:
        np.NaN = np.nan


def run(args: argparse.Namespace) -> dict:
    """l2metrics' numbers for one log, with the STE runs stored into ``$L2DATA`` first."""
    from l2metrics import util
    from l2metrics.report import MetricsReport

    for ste in args.ste:
        util.store_ste_data(log_dir=Path(ste), mode="a")
    kwargs = {"log_dir": Path(args.log_dir)}
    for item in args.opt:
        key, _, value = item.partition("=")
        kwargs[key] = json.loads(value)
    report = MetricsReport(**kwargs)
    report.calculate()
    lifetime = report.lifetime_metrics_df.iloc[0].to_dict() if len(report.lifetime_metrics_df) else {}
    out = {"lifetime": _clean(lifetime)}
    if not args.summary:
        tasks = {}
        for task, values in report.task_metrics_df.iterrows():
            tasks[task] = _clean({k: v for k, v in values.items()
                                  if k in report.task_metrics or k.endswith("_vals")})
        regime_cols = [c for c in ("saturation", "exp_to_sat", "term_perf", "exp_to_term_perf",
                                   "recovery_time", "avg_train_perf", "avg_eval_perf",
                                   "maintenance_val_mrlep", "maintenance_val_mrtlp")
                       if c in report._metrics_df.columns]
        out["tasks"] = tasks
        out["regimes"] = _clean(report._metrics_df[["task_name"] + regime_cols]
                                .to_dict(orient="records"))
    return out


def serve() -> int:
    """One run per line of standard input (see the module's docstring); a run that raises
    answers ``{"error": TRACEBACK}`` and the next goes on."""
    import traceback

    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _quiet()
    for line in sys.stdin:
        job = json.loads(line)
        os.environ["L2DATA"] = job["l2data"]
        try:
            answer = run(_parser().parse_args(job["argv"]))
        except Exception:  # noqa: BLE001 - the caller fails the test with it
            answer = {"error": traceback.format_exc()[-3000:]}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


def main() -> int:
    if sys.argv[1:] == ["--serve"]:
        return serve()
    args = _parser().parse_args()
    _quiet()
    os.environ.setdefault("L2DATA", tempfile.mkdtemp(prefix="l2data-"))
    json.dump(run(args), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
