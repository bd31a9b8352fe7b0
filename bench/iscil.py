"""Benchmark: sylla's continual-imitation reader on a generated ``training_log.log`` against a
straightforward line-by-line Python parse of the same file (the reference script's approach:
read the lines, strip and split each, test the first token, regex the evaluation lines), both
measured in the same process.

    python bench/iscil.py [--lines 1000000] [--repeat 3] [--keep DIR] [--quoted-losses]
    python bench/iscil.py --process [--lines 1000000] [--repeat 3] [--dense]

With ``--process``, whole processes instead (issue 24): ``sylla metrics --format json`` on the log
against this file's `baseline` run as a stdlib-only script in its own interpreter, best of
--repeat each, interleaved; target: sylla at most 0.5x the script. The load average is printed
because the ratio means little on a busy machine.

Prints the file size, both times (best of --repeat) and sylla / baseline. Target (issue 8): at
most 1/3 of the baseline's time at 1,000,000 lines. Both parsers must agree on every phase's
train tasks and scores, so the speed is not bought with a different answer.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUBGOALS = ["microwave", "kettle", "bottom burner", "top burner", "light switch",
            "slide cabinet", "hinge cabinet"]


def generate(lines: int, seed: int = 0, quoted: bool = False,
             eval_share: float | None = None) -> str:
    """A log shaped like the trainer's: config line per phase, mostly loss lines, an evaluation
    block (``skill_seq``, new-style and old-style lines, the stage total) every 2,000 lines.

    With ``eval_share`` (issue 40's evaluation-dense shape: 0.1), the blocks come as often as
    makes that share of the lines new- or old-style evaluation lines (the ones the reader
    scores): a trainer evaluating every few dozen updates."""
    rng = random.Random(seed)
    tasks = [SUBGOALS[i:i + 2] + SUBGOALS[:1] for i in range(len(SUBGOALS) - 1)]
    out = ["Namespace(algo='iscil', env='kitchen', seed=0)"]
    phase = -1
    per_phase = max(lines // 20, 50)
    while len(out) < lines:
        if len(out) // per_phase > phase:
            phase = len(out) // per_phase
            name = "-".join(tasks[phase % len(tasks)])
            out.append(f"{{'data_name': '{name}', 'data_paths': ['data/evolving_kitchen/"
                       f"{name.replace(' ', '_')}.pkl'], 'seed': 0, 'epoch': 5000}}")
        tested = phase % len(tasks) + 1
        losses = 1_980 if eval_share is None else max(
            round(2 * tested / eval_share) - 3 * tested - 2, 0)
        for _ in range(losses):
            if quoted:  # the dict-shaped loss lines some trainers print
                out.append(f"{{'epoch': {len(out)}, 'loss': {rng.random():.6f}, 'lr': 0.0001}}")
            else:
                out.append(f"[epoch {len(out)}] loss : {rng.random():.6f}, lr : 0.0001, "
                           f"grad_norm : {rng.random() * 3:.4f}")
        out.append("")
        for i, t in enumerate(tasks[:tested]):
            raw = rng.randint(0, 400) / 100
            listing = repr(t)
            out.append(f"[{i}] skill_seq: {listing}, avg rew: {raw:.2f}")
            out.append(f"[task {i}] sub_goal sequence is {listing} task GC : {raw / 4 * 100:.2f}%"
                       f" ({raw:.2f} / 4.00)")
            out.append(f"[{i}]skill is  {listing} rew : {raw:.2f}")
        out.append("[Stage Multi-task(Total) GC] : 50.00% (2.00 / 4.00)")
    return "\n".join(out[:lines]) + "\n"


_NEW = re.compile(r"\[task\s+(\d+)\]\s*sub_goal sequence is (\[.*\])\s+task GC\s*:.*"
                  r"\(\s*(\S+)\s*/\s*(\S+)\s*\)")
_OLD = re.compile(r"\[\d+\]skill is\s+(\[.*\])\s+rew\s*:\s*(\S+)")
_NAME = re.compile(r"'data_name':\s*'([^']*)'")


def baseline(path: Path) -> list[tuple[list[str], dict[str, float]]]:
    """The straightforward parse: one Python iteration per line."""
    phases: list[tuple[list[str], dict[str, float]]] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            first = line.split(" ", 1)[0]
            if first.startswith("{'data_name':"):
                name = _NAME.search(line).group(1)
                phases.append(([t.strip().replace(" ", "-") for t in name.split(",")], {}))
            elif not phases:
                continue
            elif first.startswith("[task"):
                m = _NEW.match(line)
                if m:
                    task = "-".join(s.replace(" ", "-") for s in eval(m.group(2)))
                    phases[-1][1][task] = float(m.group(3)) / float(m.group(4))
            elif "skill" in first:
                m = _OLD.match(line)
                if m:
                    task = "-".join(s.replace(" ", "-") for s in eval(m.group(1)))
                    phases[-1][1][task] = float(m.group(2)) / 4.0
    return [p for p in phases if p[1]]


def ours(path: Path) -> list[tuple[list[str], dict[str, float]]]:
    from sylla.metrics.readers.iscil import read_iscil

    log = read_iscil(path)
    return [(p.train, {t: e.score for t, e in p.evals.items()}) for p in log.experiments[0].phases]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


SCRIPT = """
import re, sys
_NEW = re.compile({new!r})
_OLD = re.compile({old!r})
_NAME = re.compile({name!r})
{body}
phases = baseline(sys.argv[1])
print(len(phases))
"""


def script() -> str:
    """`baseline` as a stand-alone stdlib script (the reference approach, as users run it)."""
    import inspect

    body = inspect.getsource(baseline).replace("path: Path", "path").replace(
        " -> list[tuple[list[str], dict[str, float]]]", "").replace(
        "phases: list[tuple[list[str], dict[str, float]]] = []", "phases = []")
    return SCRIPT.format(new=_NEW.pattern, old=_OLD.pattern, name=_NAME.pattern, body=body)


def processes(path: Path, repeat: int, before: str | None = None) -> None:
    """Whole processes, interleaved, best of ``repeat``: the stdlib script and sylla (and
    ``before``, another sylla executable, e.g. an install of the previous commit)."""
    sylla = str(Path(sys.executable).with_name("sylla"))
    args = ["metrics", "--log", str(path), "--format", "json", "--no-progress"]
    commands = {"stdlib script": [sys.executable, "-c", script(), str(path)],
                "sylla metrics": [sylla, *args]}
    if before:
        commands["before"] = [before, *args]
    # warm the page cache and write the bytecode caches a user's install has (under
    # PYTHONDONTWRITEBYTECODE every run would compile sylla's own modules again)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for cmd in commands.values():
        subprocess.run(cmd, capture_output=True, check=True, env=env)
    best = {name: float("inf") for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True)
            best[name] = min(best[name], time.perf_counter() - t)
    ratio = best["sylla metrics"] / best["stdlib script"]
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'stdlib script s':>16} {'sylla metrics s':>16} {'ratio':>6}")
    print(f"{best['stdlib script']:>16.3f} {best['sylla metrics']:>16.3f} {ratio:>6.3f}")
    print("target: ratio <= 0.5", "(met)" if ratio <= 0.5 else "(NOT met)")
    if before:
        print(f"before: {best['before']:.3f} s = {best['before'] / best['stdlib script']:.3f}x "
              "the script")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR", help="write the generated log here instead")
    ap.add_argument("--quoted-losses", action="store_true",
                    help="print losses as dicts ({'loss': ...}), quotes on every line")
    ap.add_argument("--dense", action="store_true",
                    help="the evaluation-dense shape (issue 40): 10%% of the lines are "
                    "evaluation lines")
    ap.add_argument("--process", action="store_true",
                    help="time whole processes: sylla metrics vs the stdlib script")
    ap.add_argument("--before", metavar="SYLLA", help="with --process, also time this other "
                    "sylla executable")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp) / "exp_bench"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "training_log.log"
        text = generate(args.lines, quoted=args.quoted_losses,
                        eval_share=0.1 if args.dense else None)
        path.write_text(text, encoding="utf-8")
        scored = len(re.findall(r"(?m)^(?:\[task \d+\] sub_goal|\[\d+\]skill is)", text))
        print(f"{args.lines} lines, {path.stat().st_size / 1e6:.1f} MB, "
              f"{scored / args.lines:.1%} evaluation lines")
        if args.process:
            processes(path, args.repeat, args.before)
            return
        expected = baseline(path)
        assert ours(path) == expected, "sylla and the baseline read the log differently"
        base = best(lambda: baseline(path), args.repeat)
        mine = best(lambda: ours(path), args.repeat)
        size = path.stat().st_size / 1e6
        print(f"{'lines':>9} {'MB':>6} {'phases':>6} {'baseline ms':>12} {'sylla ms':>9} "
              f"{'ratio':>6}")
        print(f"{args.lines:>9} {size:>6.1f} {len(expected):>6} {base * 1e3:>12.0f} "
              f"{mine * 1e3:>9.0f} {mine / base:>6.3f}")
        print("target: ratio <= 0.333", "(met)" if mine / base <= 1 / 3 else "(NOT met)")


if __name__ == "__main__":
    main()
