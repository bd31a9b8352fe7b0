"""Write l2logger logs with l2logger's own ``DataLogger`` from JSON specs (runs in ``.venv-l2m``).

The differential suite generates log *specs* in sylla's venv (hypothesis) and writes them here,
with the library that real agents use, so the logs are in the exact shape l2logger writes: one
``DataLogger`` per worker sharing one scenario folder and one experience counter (as l2logger's
``mock_parallel_workflow`` example does), ``task_params`` as JSON, a timestamp per record.

Usage: ``python l2l_write.py < specs.json``, where the input is a list of
``{"dir": base, "scenario": name, "version": "1.1"|"1.0", "perf": [columns],
"records": [[worker, block_num, exp_num, block_type, block_subtype, task, status, rows,
params]]}`` where ``rows`` holds one list of values (one per performance column) per logged row
and ``params`` (optional, default ``{}``) is the record's ``task_params``;
prints the list of scenario folders written. Format 1.0 is written by l2logger 1.8 and then
rewritten as l2logger 1.0 did: no ``block_subtype`` column, ``log_format_version`` "1.0".
"""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

from l2logger import l2logger


def write(spec: dict) -> str:
    perf = list(spec["perf"])
    info = {"metrics_columns": perf}
    scenario = {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom"}
    loggers: dict[str, l2logger.DataLogger] = {}
    first: l2logger.DataLogger | None = None
    for worker, block, exp, kind, subtype, task, status, rows, *params in spec["records"]:
        logger = loggers.get(worker)
        if logger is None:
            logger = l2logger.DataLogger(spec["dir"], spec["scenario"], dict(info), scenario)
            if first is None:
                first = logger
            else:  # every worker writes into the first worker's scenario folder
                if logger._scenario_dir != first._scenario_dir:
                    for name in ("logger_info.json", "scenario_info.json"):
                        os.remove(os.path.join(logger._scenario_dir, name))
                    os.rmdir(logger._scenario_dir)
                logger._scenario_dir = first._scenario_dir
            loggers[worker] = logger
        for values in rows:
            logger.log_record({"block_num": block, "exp_num": exp, "worker_id": worker,
                               "block_type": kind, "block_subtype": subtype, "task_name": task,
                               "task_params": params[0] if params else {},
                               "exp_status": status,
                               **dict(zip(perf, values))})
    for logger in loggers.values():
        logger.close()
    assert first is not None, "a spec needs records"
    root = Path(first.scenario_dir)
    if spec.get("version", "1.1") == "1.0":
        _downgrade(root)
    return str(root)


def _downgrade(root: Path) -> None:
    """Rewrite a 1.1 log as format 1.0: drop ``block_subtype``, mark the version."""
    info_path = root / "logger_info.json"
    info = json.loads(info_path.read_text())
    info["log_format_version"] = "1.0"
    info_path.write_text(json.dumps(info, indent=2))
    for path in root.glob("*/*/data-log.tsv"):
        with open(path, newline="") as handle:
            rows = list(csv.reader(handle, delimiter="\t"))
        drop = rows[0].index("block_subtype")
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerows([r[:drop] + r[drop + 1:] for r in rows])


def main() -> int:
    specs = json.load(sys.stdin)
    json.dump([write(s) for s in specs], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
