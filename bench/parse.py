"""Benchmark: parse + schema validation + model of generated syllabi, as a ratio to
``json.loads`` on the same text, measured in the same run.

    python bench/parse.py [--sizes 1000 10000 100000] [--repeat 3]

Prints one row per size: MB, json.loads ms, sylla ms, ratio (best of --repeat runs each).
The target (issue 2) is at most 25x json.loads at ~5 MB.
"""

from __future__ import annotations

import argparse
import json
import time

import sylla
from sylla.grammar.synth import TASKS, phase_pairs

def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sylla.parse("[]")  # build/load the tables outside the timing
    print(f"{'instructions':>12} {'MB':>6} {'json.loads ms':>14} {'sylla ms':>9} {'ratio':>6}")
    for n in args.sizes:
        text = phase_pairs(instructions=n, tasks=TASKS)
        result = sylla.parse(text)
        assert result.diagnostics == [] and result.model is not None
        assert result.model.value == json.loads(text)
        base = best(lambda: json.loads(text), args.repeat)
        ours = best(lambda: sylla.parse(text), args.repeat)
        print(f"{n:>12} {len(text.encode()) / 1e6:>6.2f} {base * 1e3:>14.1f} {ours * 1e3:>9.1f} {ours / base:>6.1f}")


if __name__ == "__main__":
    main()
