"""Start-up as users meet it (issue 24): whole processes, best of --repeat, interleaved.

    python bench/startup.py [--repeat 7] [--before OTHER_SYLLA]

- ``sylla metrics --format json`` on a 10-episode l2logger log (3 tasks; target <= 0.35 s wall);
- ``sylla metrics`` on a small continual-imitation log (the fixture ``iscil/relearn``);
- ``sylla lint`` on one small syllabus, against ``python -c pass`` (target <= 2x).

Every case runs the ``sylla`` console script as a user does (a whole process), and each ratio
is against ``python -c pass`` of the interpreter that script runs with: the editable install's
interpreter also loads setuptools' editable finder at start, a wheel install's does not.
The load average is printed first: on a busy machine every figure moves, the ratios less.
Python writes no bytecode caches when PYTHONDONTWRITEBYTECODE is set, and then recompiles every
module of sylla on every start; the bench compiles them once first, as an installed package is.
"""

from __future__ import annotations

import argparse
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


def interpreter(script: str) -> str:
    """The Python a console script runs with (its ``#!`` line): its ``python -c pass`` is the
    baseline the issue names, so each install is measured against its own interpreter."""
    with open(script, encoding="utf-8") as fh:
        first = fh.readline()
    return first[2:].strip() if first.startswith("#!") else sys.executable


def compile_sources(python: str) -> None:
    """Byte-compile the sylla that ``python`` imports, as an installed package is: with
    PYTHONDONTWRITEBYTECODE set nothing else does, and every start would recompile it.
    compileall skips symbolic links, so a checkout's linked folders are compiled themselves."""
    code = ("import compileall, os, sylla; pkg = os.path.dirname(os.path.realpath(sylla.__file__)); "
            "[compileall.compile_dir(os.path.realpath(os.path.join(pkg, d)), quiet=1) "
            "for d in ('.', 'grammar', 'linter', 'lsp', 'metrics') if os.path.isdir(os.path.join(pkg, d))]")
    subprocess.run([python, "-c", code], check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--before", metavar="SYLLA", help="also time this other sylla executable "
                    "(another install), against its own interpreter's python -c pass")
    ap.add_argument("--lint-only", action="store_true",
                    help="time python -c pass and the lint only (an install without the metrics extra)")
    args = ap.parse_args()
    log = Path("not-written")
    if not args.lint_only:
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
    if args.lint_only:
        cases = {k: v for k, v in cases.items() if not k.startswith("metrics")}
    programs = {"after": sylla} | ({"before": args.before} if args.before else {})
    pythons = {label: interpreter(program) for label, program in programs.items()}
    for python in dict.fromkeys(pythons.values()):
        compile_sources(python)
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; best of {args.repeat}")
    times: dict[tuple[str, str], float] = {}
    cpu: dict[tuple[str, str], float] = {}
    for _ in range(args.repeat):  # interleaved: a burst of load hits every case alike
        for name, rest in cases.items():
            for label, program in programs.items():
                cmd = [pythons[label], *rest] if name == "python -c pass" else [program, *rest]
                if (name, label) not in times:
                    subprocess.run(cmd, capture_output=True)  # warm-up (and the caches' first fill)
                wall, used = best(cmd, 1)
                times[(name, label)] = min(times.get((name, label), wall), wall)
                cpu[(name, label)] = min(cpu.get((name, label), used), used)
    print(f"{'case':<32} " + " ".join(f"{label:>20}" for label in programs))
    for name in cases:
        cells = [(times[(name, label)], times[("python -c pass", label)]) for label in programs]
        print(f"{name:<32} " + " ".join(f"{t:>8.3f} s {t / base:>6.2f}x" for t, base in cells))
    print("(x: the install's own python -c pass, wall time)")
    print("CPU time (user + system): " + "; ".join(
        f"{name} {label} {cpu[(name, label)]:.3f} s ({cpu[(name, label)] / cpu[('python -c pass', label)]:.1f}x)"
        for name in cases for label in programs))
    metrics = times.get(("metrics, 10-episode l2logger", "after"))
    if metrics is not None:
        print(f"metrics on 10 episodes: {metrics:.3f} s (target <= 0.35 s)"
              f" {'met' if metrics <= 0.35 else 'NOT met'}")
    for label in programs:
        lint, base = times[("lint, one small file", label)], times[("python -c pass", label)]
        print(f"lint {label}: {lint:.3f} s = {lint / base:.2f}x python -c pass of {pythons[label]}"
              f" ({base:.3f} s; target <= 2x) {'met' if lint <= 2 * base else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
