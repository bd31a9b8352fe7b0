"""Start-up as users meet it (issue 24): whole processes, best of --repeat, interleaved.

    python bench/startup.py [--repeat 7] [--before OTHER_SYLLA]

- ``sylla metrics --format json`` on a 10-episode l2logger log (3 tasks; target <= 0.35 s wall);
- ``sylla metrics`` on a small continual-imitation log (the fixture ``iscil/relearn``);
- ``sylla lint`` on one small syllabus, against ``python -c pass`` (target <= 2x).

The load average is printed first: on a busy machine every figure moves, the ratios less.
Python writes no bytecode caches when PYTHONDONTWRITEBYTECODE is set, and then recompiles every
module of sylla on every start; the bench compiles them once first, as an installed package is.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def best(cmd: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system) of the child over ``repeat`` runs: on a
    shared machine the wall time also counts waiting for a core, the CPU time does not."""
    times, cpus = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return min(times), min(cpus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--before", metavar="SYLLA", help="also time this other sylla executable")
    args = ap.parse_args()
    for folder in ("sylla", "metrics", "linter", "lsp", "grammar"):
        compileall.compile_dir(ROOT / folder, quiet=1)
    from sylla.metrics.synth import alternating_plan, write_l2logger

    tmp = Path(tempfile.mkdtemp(prefix="sylla-startup-"))
    log = write_l2logger(tmp / "ll10", alternating_plan(["a_v0", "b_v0", "c_v0"], 1, 1), seed=1)
    sylla = str(Path(sys.executable).with_name("sylla"))
    cases = {
        "python -c pass": ["-c", "pass"],
        "metrics, 10-episode l2logger": ["metrics", "--log", str(log), "--format", "json"],
        "metrics, small IsCiL log": ["metrics", "--log", str(ROOT / "tests" / "fixtures" /
                                                         "metrics" / "iscil" / "relearn")],
        "lint, one small file": ["lint", str(ROOT / "examples" / "cl-pong.json")],
    }
    programs = {"after": sylla} | ({"before": args.before} if args.before else {})
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; best of {args.repeat}")
    times: dict[tuple[str, str], float] = {}
    cpu: dict[tuple[str, str], float] = {}
    for name, rest in cases.items():
        for label, program in programs.items():
            cmd = [sys.executable, *rest] if name == "python -c pass" else [program, *rest]
            subprocess.run(cmd, capture_output=True)  # warm-up
            times[(name, label)], cpu[(name, label)] = best(cmd, args.repeat)
            if name == "python -c pass":
                break
    base = times[("python -c pass", "after")]
    print(f"{'case':<32} " + " ".join(f"{label:>14}" for label in programs))
    for name in cases:
        cells = [times.get((name, label)) for label in programs]
        print(f"{name:<32} " + " ".join(f"{c:>8.3f} s {c / base:>3.0f}x" if c else f"{'':>14}"
                                         for c in cells))
    base_cpu = cpu[("python -c pass", "after")]
    print(f"CPU time (user + system): " + "; ".join(
        f"{name} {label} {cpu[(name, label)]:.3f} s ({cpu[(name, label)] / base_cpu:.1f}x)"
        for name in cases for label in programs if (name, label) in cpu))
    metrics = times[("metrics, 10-episode l2logger", "after")]
    lint = times[("lint, one small file", "after")]
    print(f"metrics on 10 episodes: {metrics:.3f} s (target <= 0.35 s)"
          f" {'met' if metrics <= 0.35 else 'NOT met'}")
    print(f"lint: {lint / base:.2f}x python -c pass (target <= 2x)"
          f" {'met' if lint <= 2 * base else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
