"""The long differential campaign: sylla against l2metrics 3.1.0's own CLI, every shape, every option.

``tests/metrics/test_differential.py`` runs a short draw of this in the test suite; this script
runs as many batches as asked. Each batch draws logs from `tests/metrics/differential/shapes.py`
(l2logger's ``DataLogger`` writes them), stores a pool of STE runs with l2metrics' ``-s a`` and
``-s w``, runs ``python -m l2metrics -R`` under every option set of
`tests/metrics/differential/harness.py` and compares every value it writes with sylla's; then
runs l2metrics on each log alone, as ``python -m l2metrics -l LOG`` does, and compares the two
files it writes with ``sylla metrics --format l2metrics``'s, key for key and cell for cell
(`tests/metrics/differential/files.py`). The first batch also holds the shapes a draw may miss
(`shapes.pinned`).

    .venv/bin/python bench/differential.py --batches 4 --logs 8 [--max-block 500] [--json out.json]

Prints the counts (logs, option sets, (log, option set) pairs both tools computed, values
compared, mismatches above 1e-9, argued departures, l2metrics failures, sylla failures; the
same for the ``--format l2metrics`` files) and the first mismatches; exits 1 if any value, key
or cell differs or sylla fails where l2metrics does not.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.metrics.differential import batch, harness, shapes  # noqa: E402
from tests.metrics.differential.suite import draw  # noqa: E402

#: the findings a batch lists, one line each
LISTS = ("mismatches", "sylla_failed", "l2m_failed", "departures", "file_mismatches",
         "file_l2m_failed", "file_sylla_failed")
#: the findings that fail the campaign
BAD = ("mismatches", "sylla_failed", "file_mismatches", "file_sylla_failed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--logs", type=int, default=8, help="logs per batch")
    parser.add_argument("--max-block", type=int, default=500, help="longest block (experiences)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--json", type=Path, help="write the counts and findings here")
    parser.add_argument("--no-files", action="store_true",
                        help="compare the numbers only, not the --format l2metrics files")
    args = parser.parse_args(argv)
    if not harness.L2M_PY.exists():
        print(f"l2metrics venv missing at {harness.L2M_PY}: run bash scripts/setup.sh",
              file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    findings: dict[str, list[str]] = {key: [] for key in LISTS}
    shapes_seen: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(args.batches):
        logs = draw(shapes.log_specs(max_block=args.max_block), args.logs + 1,
                    args.seed + number)[1:]
        if number == 0:
            logs += shapes.pinned()
        pool = draw(shapes.ste_pools(), 3, args.seed + 5000 + number)[-1]
        for item in logs:
            shape = item["shape"]
            shapes_seen.update(f"{k}={v}" for k, v in shape.items() if k != "blocks")
        with tempfile.TemporaryDirectory(prefix="sylla-diff-") as work:
            report = batch.run_batch(logs, pool, list(harness.OPTION_SETS), Path(work),
                                     with_files=not args.no_files)
        totals.update(logs=report.logs, runs=report.runs, values=report.values,
                      file_runs=report.file_runs, file_values=report.file_values)
        totals.update({key: len(getattr(report, key)) for key in LISTS})
        for key in findings:
            findings[key] += getattr(report, key)
        print(f"batch {number + 1}/{args.batches}: {report.logs} logs, {report.runs} runs, "
              f"{report.values} values, {len(report.mismatches)} mismatches, "
              f"{len(report.departures)} departures, {len(report.l2m_failed)} l2metrics "
              f"failures, {len(report.sylla_failed)} sylla failures; files: "
              f"{report.file_runs} runs, {report.file_values} values, "
              f"{len(report.file_mismatches)} mismatches, {len(report.file_l2m_failed)} "
              f"l2metrics failures, {len(report.file_sylla_failed)} sylla failures "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    summary = {
        "logs": totals["logs"], "option_sets": len(harness.OPTION_SETS),
        "runs_compared": totals["runs"], "values_compared": totals["values"],
        "mismatches": totals["mismatches"], "departures": totals["departures"],
        "l2metrics_failures": totals["l2m_failed"], "sylla_failures": totals["sylla_failed"],
        "files": {"runs_compared": totals["file_runs"], "values_compared": totals["file_values"],
                  "mismatches": totals["file_mismatches"],
                  "l2metrics_failures": totals["file_l2m_failed"],
                  "sylla_failures": totals["file_sylla_failed"]},
        "seconds": round(time.perf_counter() - started, 1), "shapes": dict(shapes_seen),
    }
    print(json.dumps(summary, indent=2))
    for key in BAD:
        for line in findings[key][:30]:
            print(f"{key}: {line}")
    for key in ("l2m_failed", "file_l2m_failed"):
        kinds = Counter(line.split(": ", 1)[-1][:80] for line in findings[key])
        for why, n in kinds.most_common(8):
            print(f"{key} ({n}): {why}")
    if args.json:
        args.json.write_text(json.dumps({**summary, **findings}, indent=2))
    return 1 if any(totals[key] for key in BAD) else 0


if __name__ == "__main__":
    raise SystemExit(main())
