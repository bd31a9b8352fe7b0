"""Benchmark: parse + schema validation + model of generated syllabi, as a ratio to
``json.loads`` on the same text, measured in the same run.

    python bench/parse.py [--sizes 1000 10000 100000] [--repeat 3] [--before PYTHON]

Prints one row per size: MB, json.loads ms, sylla ms, ratio (best of --repeat runs each),
in wall time and in CPU time (``time.process_time``: on a machine shared with other work the
wall time of both sides swings with the load, their CPU time much less). The target (issue 24)
is at most 10x json.loads at ~5 MB (``--sizes 81000``); exits 1 when a size of 5 MB or more
misses it in CPU time. Prints the load average. ``--before PYTHON`` also runs the same
measurement with another installation's sylla (the code before a change, in its own venv) in
a child process, size by size in the same run, each against its own ``json.loads``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import sylla
from sylla.grammar.syllabus.synth import TASKS, phase_pairs

TARGET = 10.0


def best(fn, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return min(times)


def measure(n: int, repeat: int) -> list[tuple[str, float, float]]:
    """``(clock, json.loads seconds, sylla seconds)`` for ``n`` generated instructions."""
    text = phase_pairs(instructions=n, tasks=TASKS)
    result = sylla.parse(text)
    assert result.diagnostics == [] and result.model is not None
    assert result.model.value == json.loads(text)
    rows = []
    for label, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
        base = best(lambda: json.loads(text), repeat, clock)
        ours = best(lambda: sylla.parse(text), repeat, clock)
        rows.append((label, base, ours))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", help="the python of another installation to measure the same way, in the same run")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sylla.parse("[]")  # build/load the tables outside the timing
    if args.child:
        print(json.dumps({n: measure(n, args.repeat) for n in args.sizes}))
        return 0
    ok = True
    print(f"{'instructions':>12} {'MB':>6} {'code':>6} {'clock':>5} {'json.loads ms':>14} {'sylla ms':>9} {'ratio':>6}")
    for n in args.sizes:
        mb = len(phase_pairs(instructions=n, tasks=TASKS).encode()) / 1e6
        runs = [("after", measure(n, args.repeat))]
        if args.before:
            out = subprocess.run(
                [args.before, __file__, "--child", "--sizes", str(n), "--repeat", str(args.repeat)],
                check=True, capture_output=True, text=True,
            ).stdout
            runs.append(("before", [tuple(row) for row in json.loads(out)[str(n)]]))
        ratios: dict[str, float] = {}
        for code, rows in runs:
            for label, base, ours in rows:
                verdict = ""
                if mb >= 4.9 and label == "cpu":
                    ratios[code] = ours / base
                    if code == "after":
                        ok &= ours / base <= TARGET
                        verdict = "  OK" if ours / base <= TARGET else "  MISSED"
                print(f"{n:>12} {mb:>6.2f} {code:>6} {label:>5} {base * 1e3:>14.1f} {ours * 1e3:>9.1f} {ours / base:>6.1f}{verdict}")
        if len(ratios) == 2:
            print(f"{'':>12} cpu ratio after / before = {ratios['after'] / ratios['before']:.2f}")
    print(f"target at 5 MB: <= {TARGET:.0f}x json.loads; load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
