"""Check that a change leaves ``sylla metrics --format json`` byte-identical on the bench logs.

    python bench/same_output.py record DIR   # before the change: write DIR/<case>.json
    python bench/same_output.py check DIR    # after it: run again and compare byte for byte

The cases are the fixtures under tests/fixtures/metrics (l2logger, learnkit, continual-imitation
logs, with and without STE runs) plus generated logs in DIR/logs: l2logger logs of 100k episodes
with one and with three rows per experience (3 tasks, STE runs; with and without a syllabus, and
with one that is 10 episodes short) and a 200k-line IsCiL log, the shapes the speed benches time. Stdout and stderr and the exit code are all compared.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "metrics"
SYLLA = str(Path(sys.executable).with_name("sylla"))


def _logs(base: Path) -> dict[str, list[str]]:
    sys.path.insert(0, str(ROOT / "bench"))
    from iscil import generate as iscil_log
    from metrics_vs_l2metrics import generate, syllabus

    logs = base / "logs"
    cases: dict[str, list[str]] = {}
    for rows in (1, 3):
        target = logs / f"r{rows}"
        if not (target / "ll-100000").exists():
            generate(target, 100_000, rows)
        cases[f"l2logger-100k-r{rows}"] = ["--log", str(target / "ll-100000"),
                                           "--ste", str(target / "ste-100000")]
        cases[f"l2logger-100k-r{rows}-nostes"] = ["--log", str(target / "ll-100000")]
        plan = syllabus(target, 100_000)
        cases[f"l2logger-100k-r{rows}-syllabus"] = ["--log", str(target / "ll-100000"),
                                                    "--syllabus", str(plan),
                                                    "--ste", str(target / "ste-100000")]
    # syllabi the log disagrees with: a train block 10 episodes shorter (an error), and a last
    # test block 10 episodes longer (an error, or a partial run with --allow-partial)
    r3 = logs / "r3"
    text = syllabus(r3, 100_000).read_text(encoding="utf-8")
    short, long = r3 / "syllabus-short.json", r3 / "syllabus-long.json"
    short.write_text(text.replace('"count": 8888\n', '"count": 8878\n', 1), encoding="utf-8")
    head, sep, tail = text.rpartition('"count": 666\n')
    long.write_text(head + '"count": 676\n' + tail, encoding="utf-8")
    for name, plan in (("short", short), ("long", long)):
        cases[f"l2logger-100k-r3-syllabus-{name}"] = ["--log", str(r3 / "ll-100000"),
                                                     "--syllabus", str(plan)]
        cases[f"l2logger-100k-r3-syllabus-{name}-partial"] = [
            "--log", str(r3 / "ll-100000"), "--syllabus", str(plan), "--allow-partial"]
    iscil = logs / "iscil" / "exp_bench" / "training_log.log"
    if not iscil.exists():
        iscil.parent.mkdir(parents=True, exist_ok=True)
        iscil.write_text(iscil_log(200_000), encoding="utf-8")
    cases["iscil-200k"] = ["--log", str(iscil)]
    cases["iscil-200k-text"] = ["--log", str(iscil), "--format", "text"]
    for d in ("l2logger_v10", "l2logger_v11", "learnkit_feb2020", "learnkit_sep2020"):
        cases[d] = ["--log", str(FIX / d)]
    for sub in sorted(p for p in (FIX / "iscil").rglob("training_log.log")):
        name = "iscil-" + "-".join(sub.relative_to(FIX / "iscil").parts[:-1])
        cases[name] = ["--log", str(sub.parent)]
        cases[name + "-text"] = ["--log", str(sub.parent), "--format", "text"]
    for tree in ("tree/iscil", "tree/iscil/kitchen", "mixed"):
        if (FIX / "iscil" / tree).is_dir():
            cases[f"iscil-root-{tree.replace('/', '-')}"] = ["--log", str(FIX / "iscil" / tree)]
            cases[f"iscil-root-{tree.replace('/', '-')}-text"] = ["--log", str(FIX / "iscil" / tree), "--format",
                                                "text", "-P", "iscil_detail=true"]
    return cases


def _run(args: list[str]) -> str:
    cmd = [SYLLA, "metrics", "--format", "json", "--no-progress", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return json.dumps({"rc": proc.returncode, "out": proc.stdout, "err": proc.stderr})


def main() -> int:
    mode, base = sys.argv[1], Path(sys.argv[2])
    base.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, args in _logs(base).items():
        got = _run(args)
        target = base / f"{name}.json"
        if mode == "record":
            target.write_text(got, encoding="utf-8")
            print(f"recorded {name} (rc {json.loads(got)['rc']})")
        elif target.read_text(encoding="utf-8") != got:
            bad += 1
            print(f"DIFFERS: {name}")
        else:
            print(f"same: {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
