"""Benchmark checking a full wave-3 delivery and drawing its curves against reading its CSVs.

A generated delivery in the request's shape (100 problems × 5 runs × 5 orderings × 11 trials =
27,500 prediction rows; about 200,000 best-so-far rows; 10,000 samples) and its 500 trial files
are written to a temp folder. In the same run, in separate processes:

- baseline: ``pandas.read_csv`` of predictions.csv, bests.csv and samples.csv (nothing else);
- ``sylla lint DIR --trials json/`` (read, every check, every program parsed, typed, evaluated
  on its ordering's examples, priors and likelihoods recomputed);
- ``sylla metrics --log DIR --trials json/`` (read, evaluate, curves, search sensitivity).

Each side's time excludes interpreter start and imports (measured inside the process).
Target: the whole check within 10× of just reading the CSVs.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

BASELINE = """
import sys, time
import pandas as pd
folder = sys.argv[1]
start = time.perf_counter()
n = sum(len(pd.read_csv(f"{folder}/{name}")) for name in ("predictions.csv", "bests.csv", "samples.csv"))
print(time.perf_counter() - start, n)
"""

LINT = """
import sys, time
import pandas  # imports are not what is measured
from sylla.linter.deliveries import check_delivery
start = time.perf_counter()
results, errors = check_delivery(sys.argv[1], sys.argv[2])
n = sum(len(r.findings) for _, r in results)
print(time.perf_counter() - start, n)
"""

METRICS = """
import sys, time
import pandas
from sylla.metrics.learning_curves import compute
from sylla.metrics.readers.deliveries import read_trials
start = time.perf_counter()
tables = compute(read_trials(sys.argv[1], sys.argv[2]))
print(time.perf_counter() - start, len(tables["search"]))
"""


def measure(code: str, *args: str) -> float:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def main() -> int:
    from sylla.grammar.trials.synth import write_delivery, write_trials

    with tempfile.TemporaryDirectory() as tmp:
        json_dir, delivery = f"{tmp}/json", f"{tmp}/delivery"
        write_trials(json_dir)
        counts = write_delivery(delivery, bests_per_trial=17)
        size = sum(p.stat().st_size for p in Path(delivery).iterdir()) / 1e6
        print(f"delivery: {counts['predictions']:,} predictions, {counts['bests']:,} best-so-far rows, 10,000 samples, {size:.1f} MB")
        base = min(measure(BASELINE, delivery) for _ in range(5))
        lint = min(measure(LINT, delivery, json_dir) for _ in range(5))
        curves = min(measure(METRICS, delivery, json_dir) for _ in range(5))
    print(f"pandas read_csv (3 files):        {base:7.3f} s")
    print(f"sylla lint --trials (all checks): {lint:7.3f} s   {lint / base:5.1f}x")
    print(f"sylla metrics --trials (curves):  {curves:7.3f} s   {curves / base:5.1f}x")
    ok = lint <= 10 * base and curves <= 10 * base
    print("target (each within 10x of reading):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
