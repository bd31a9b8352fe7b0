"""The long differential campaign: sylla against l2metrics 3.1.0's own CLI, every shape, every option.

``tests/metrics/test_differential.py`` runs a short draw of this in the test suite; this script
runs as many batches as asked. Each batch draws logs from `tests/metrics/differential/shapes.py`
(l2logger's ``DataLogger`` writes them), stores a pool of STE runs with l2metrics' ``-s a`` and
``-s w``, runs ``python -m l2metrics -R`` under every option set of
`tests/metrics/differential/harness.py` and compares every value it writes with sylla's.

    .venv/bin/python bench/differential.py --batches 4 --logs 8 [--max-block 500] [--json out.json]

Prints the counts (logs, option sets, (log, option set) pairs both tools computed, values
compared, mismatches above 1e-9, argued departures, l2metrics failures, sylla failures) and the
first mismatches; exits 1 if any value differs or sylla fails where l2metrics does not.
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

from tests.metrics.differential import harness, shapes  # noqa: E402
from tests.metrics.test_differential import draw  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--logs", type=int, default=8, help="logs per batch")
    parser.add_argument("--max-block", type=int, default=500, help="longest block (experiences)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--json", type=Path, help="write the counts and findings here")
    args = parser.parse_args(argv)
    if not harness.L2M_PY.exists():
        print(f"l2metrics venv missing at {harness.L2M_PY}: run bash scripts/setup.sh",
              file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    findings: dict[str, list[str]] = {"mismatches": [], "sylla_failed": [], "l2m_failed": [],
                                      "departures": []}
    shapes_seen: Counter[str] = Counter()
    started = time.perf_counter()
    for batch in range(args.batches):
        logs = draw(shapes.log_specs(max_block=args.max_block), args.logs + 1,
                    args.seed + batch)[1:]
        pool = draw(shapes.ste_pools(), 3, args.seed + 5000 + batch)[-1]
        for item in logs:
            shape = item["shape"]
            shapes_seen.update(f"{k}={v}" for k, v in shape.items() if k != "blocks")
        with tempfile.TemporaryDirectory(prefix="sylla-diff-") as work:
            report = harness.run_batch(logs, pool, list(harness.OPTION_SETS), Path(work))
        totals.update(logs=report.logs, runs=report.runs, values=report.values,
                      mismatches=len(report.mismatches), sylla_failed=len(report.sylla_failed),
                      l2m_failed=len(report.l2m_failed), departures=len(report.departures))
        for key in findings:
            findings[key] += getattr(report, key)
        print(f"batch {batch + 1}/{args.batches}: {report.logs} logs, {report.runs} runs, "
              f"{report.values} values, {len(report.mismatches)} mismatches, "
              f"{len(report.departures)} departures, {len(report.l2m_failed)} l2metrics "
              f"failures, {len(report.sylla_failed)} sylla failures "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    summary = {
        "logs": totals["logs"], "option_sets": len(harness.OPTION_SETS),
        "runs_compared": totals["runs"], "values_compared": totals["values"],
        "mismatches": totals["mismatches"], "departures": totals["departures"],
        "l2metrics_failures": totals["l2m_failed"], "sylla_failures": totals["sylla_failed"],
        "seconds": round(time.perf_counter() - started, 1), "shapes": dict(shapes_seen),
    }
    print(json.dumps(summary, indent=2))
    for key in ("mismatches", "sylla_failed"):
        for line in findings[key][:30]:
            print(f"{key}: {line}")
    failure_kinds = Counter(line.split(": ", 1)[-1][:80] for line in findings["l2m_failed"])
    for why, n in failure_kinds.most_common(8):
        print(f"l2metrics failed ({n}): {why}")
    if args.json:
        args.json.write_text(json.dumps({**summary, **findings}, indent=2))
    return 1 if totals["mismatches"] or totals["sylla_failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
