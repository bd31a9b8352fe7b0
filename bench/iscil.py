"""Benchmark: sylla's continual-imitation reader on a generated ``training_log.log`` against a
straightforward line-by-line Python parse of the same file (the reference script's approach:
read the lines, strip and split each, test the first token, regex the evaluation lines), both
measured in the same process.

    python bench/iscil.py [--lines 1000000] [--repeat 3] [--keep DIR] [--quoted-losses]

Prints the file size, both times (best of --repeat) and sylla / baseline. Target (issue 8): at
most 1/3 of the baseline's time at 1,000,000 lines. Both parsers must agree on every phase's
train tasks and scores, so the speed is not bought with a different answer.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path

from sylla.metrics.readers.iscil import read_iscil

SUBGOALS = ["microwave", "kettle", "bottom burner", "top burner", "light switch",
            "slide cabinet", "hinge cabinet"]


def generate(lines: int, seed: int = 0, quoted: bool = False) -> str:
    """A log shaped like the trainer's: config line per phase, mostly loss lines, an evaluation
    block (``skill_seq``, new-style and old-style lines, the stage total) every 2,000 lines."""
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
        for _ in range(1_980):
            if quoted:  # the dict-shaped loss lines some trainers print
                out.append(f"{{'epoch': {len(out)}, 'loss': {rng.random():.6f}, 'lr': 0.0001}}")
            else:
                out.append(f"[epoch {len(out)}] loss : {rng.random():.6f}, lr : 0.0001, "
                           f"grad_norm : {rng.random() * 3:.4f}")
        out.append("")
        for i, t in enumerate(tasks[: phase % len(tasks) + 1]):
            raw = rng.randint(0, 400) / 100
            listing = repr(t)
            out.append(f"[{i}] skill_seq: {listing}, avg rew: {raw:.2f}")
            out.append(f"[task {i}] sub_goal sequence is {listing} task GC : {raw / 4 * 100:.2f}%"
                       f" ({raw:.2f} / 4.00)")
            out.append(f"[{i}]skill is  {listing} rew : {raw:.2f}")
        out.append(f"[Stage Multi-task(Total) GC] : 50.00% (2.00 / 4.00)")
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
                    task = "-".join(s.replace(" ", "-") for s in eval(m.group(2)))  # noqa: S307
                    phases[-1][1][task] = float(m.group(3)) / float(m.group(4))
            elif "skill" in first:
                m = _OLD.match(line)
                if m:
                    task = "-".join(s.replace(" ", "-") for s in eval(m.group(1)))  # noqa: S307
                    phases[-1][1][task] = float(m.group(2)) / 4.0
    return [p for p in phases if p[1]]


def ours(path: Path) -> list[tuple[list[str], dict[str, float]]]:
    log = read_iscil(path)
    return [(p.train, {t: e.score for t, e in p.evals.items()}) for p in log.experiments[0].phases]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR", help="write the generated log here instead")
    ap.add_argument("--quoted-losses", action="store_true",
                    help="print losses as dicts ({'loss': ...}), quotes on every line")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp) / "exp_bench"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "training_log.log"
        path.write_text(generate(args.lines, quoted=args.quoted_losses), encoding="utf-8")
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
