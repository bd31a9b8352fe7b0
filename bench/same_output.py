"""Check that a change leaves ``sylla metrics --format json`` byte-identical on the bench logs.

    python bench/same_output.py record DIR [--wide]   # before the change: write DIR/<case>.json
    python bench/same_output.py check DIR [--wide]    # after it: run again and compare byte for byte

The cases are the fixtures under tests/fixtures/metrics (l2logger, learnkit, continual-imitation
logs, with and without STE runs) plus generated logs in DIR/logs: l2logger logs of 100k episodes
with one and with three rows per experience (3 tasks, STE runs; with and without a syllabus, and
with one that is 10 episodes short) and a 200k-line IsCiL log, the shapes the speed benches time. Stdout and stderr and the exit code are all compared.

``--wide`` adds every file and folder under tests/fixtures/metrics and examples/metrics read as
a log (detected, each format named with ``--log-format``, variant-agnostic, with the syllabi
beside it, as text, CSV and l2metrics' files), ``sylla sweep --format json`` over the sweep
fixtures and ``sylla report`` and ``sylla watch --check`` on the watch fixtures: the outputs a
refactoring of the metrics room must leave alone (issue 39). Errors are outputs too: a case
that fails must fail with the same words. Seconds in the sweep's summary line are masked.

``--forked`` runs each case in a child forked from this process once it has imported sylla and
its libraries (``sylla.cli.main`` with the case's arguments, two at a time), not in a new
interpreter: the wide set's 3,600 cases take minutes instead of more than an hour on a busy
2-core machine. The checkout's own path is written as ``<root>`` in what is compared, so a
baseline recorded in another worktree (a checkout of main) compares with this one:

    PYTHONPATH=/tmp/base .venv/bin/python /tmp/base/bench/same_output.py record DIR --wide --forked
    .venv/bin/python bench/same_output.py check DIR --wide --forked
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable, Iterator

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


EXAMPLES = ROOT / "examples" / "metrics"
#: the suffixes of files worth reading as a log (anything else under the fixtures is a script
#: or a note)
LOG_SUFFIXES = {".csv", ".tsv", ".tab", ".jsonl", ".ndjson", ".json", ".parquet", ".pq", ".log"}
#: a case: the whole ``sylla`` command line, and the folder it writes into (compared too), if any
Case = tuple[list[str], Path | None]


def _syllabi_near(path: Path) -> list[Path]:
    """The syllabi in the folder of ``path`` and in its parent (JSON files that are no log)."""
    found: list[Path] = []
    for folder in {path.parent, path.parent.parent}:
        for f in sorted(folder.glob("*.json")):
            head = f.read_text(encoding="utf-8", errors="replace")[:4096]
            if f != path and ('"$phase"' in head or '"$tasks"' in head or '"$repeat"' in head
                              or '"$block"' in head):
                found.append(f)
    return sorted(set(found))


def _wide(base: Path) -> dict[str, Case]:
    """Every fixture and example read as a log, and the other commands built on the metrics."""
    sys.path.insert(0, str(ROOT))
    from sylla.metrics.readers import FORMATS

    metrics = ["metrics", "--no-progress"]
    cases: dict[str, Case] = {}
    roots = (FIX, EXAMPLES)
    paths = sorted({p for r in roots for p in r.rglob("*")
                    if p.is_dir() or p.suffix.lower() in LOG_SUFFIXES})
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        cases[f"wide:{rel}"] = ([*metrics, "-f", "json", "--log", str(path)], None)
        cases[f"wide:{rel}:agnostic"] = ([*metrics, "-f", "json", "--log", str(path),
                                          "-P", "variant_mode=agnostic"], None)
        top = len(path.relative_to(FIX if FIX in path.parents else EXAMPLES).parts) <= 2
        lone = path.is_file() and path.name != "data-log.tsv"
        if top or lone:
            for fmt in (f for f in FORMATS if f != "auto"):
                cases[f"wide:{rel}:{fmt}"] = ([*metrics, "-f", "json", "--log", str(path),
                                               "--log-format", fmt], None)
        if top:
            cases[f"wide:{rel}:text"] = ([*metrics, "-f", "text", "--log", str(path)], None)
            cases[f"wide:{rel}:csv"] = ([*metrics, "-f", "csv", "--log", str(path)], None)
            out = base / "out" / rel.replace("/", "_")
            cases[f"wide:{rel}:l2metrics"] = ([*metrics, "-f", "l2metrics", "--log", str(path),
                                               "--out", str(out)], out)
            for plan in _syllabi_near(path):
                name = f"wide:{rel}:syllabus={plan.name}"
                cases[name] = ([*metrics, "-f", "json", "--log", str(path), "--syllabus",
                                str(plan)], None)
                cases[name + ":partial"] = ([*metrics, "-f", "json", "--log", str(path),
                                             "--syllabus", str(plan), "--allow-partial"], None)
    ste = ["--ste", str(EXAMPLES / "ste")]
    cases["wide:example-with-ste"] = ([*metrics, "-f", "json", "--log", str(EXAMPLES / "rewards.csv"),
                                       "--syllabus", str(EXAMPLES / "pong_breakout.json"), *ste], None)
    cases["wide:example-with-ste-text"] = ([*metrics, "-f", "text", "--log",
                                            str(EXAMPLES / "rewards.csv"), "--syllabus",
                                            str(EXAMPLES / "pong_breakout.json"), *ste], None)
    for root in sorted((FIX / "sweep").iterdir()):
        if not root.is_dir():
            continue
        for pattern in ("", "{agent}/seed{seed}/{name}", "{agent}/seed{seed}/*"):
            out = base / "out" / f"sweep-{root.name}-{len(pattern)}"
            extra = ["--group-by", pattern] if pattern else []
            cases[f"wide:sweep:{root.name}:{pattern}"] = (
                ["sweep", str(root), "-f", "json", "-j", "1", "--no-progress", "--out", str(out),
                 *extra], out)
    watch = FIX / "watch"
    for log in ("rewards.csv", "rewards.tsv", "rewards.jsonl", "l2logger_run"):
        for plan in ("pong_breakout.json", "pong_breakout_params.json"):
            out = base / "out" / f"report-{log}-{plan}.html"
            cases[f"wide:report:{log}:{plan}"] = (
                ["report", str(watch / log), "--syllabus", str(watch / plan), "--output-file",
                 str(out)], out)
            cases[f"wide:watch-check:{log}:{plan}"] = (
                ["watch", str(watch / log), "--check", "--syllabus", str(watch / plan)], None)
    return cases


def _written(out: Path | None) -> dict[str, str]:
    """The files a case wrote, by name (binary ones by their bytes' repr)."""
    if out is None or not out.exists():
        return {}
    files = [out] if out.is_file() else sorted(p for p in out.rglob("*") if p.is_file())
    got = {}
    for f in files:
        if "cache" in f.relative_to(out.parent).parts or f.name == "stat-index.json":
            continue  # the sweep's cache: keyed by sylla's version and file times
        data = f.read_bytes()
        try:
            got[f.relative_to(out.parent).as_posix()] = data.decode("utf-8")
        except UnicodeDecodeError:
            got[f.relative_to(out.parent).as_posix()] = repr(data)
    return got


def _run(case: Case) -> str:
    args, out = case
    if out is not None:
        shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.run([SYLLA, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)
    err = re.sub(r"\d+\.\d+ s\b", "<t> s", proc.stderr)
    return json.dumps({"rc": proc.returncode, "out": proc.stdout, "err": err,
                       "files": _written(out)})


def _warm() -> None:
    """Import what the cases will, before any child is forked, as the console script would
    (one BLAS thread, a 120-column terminal)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ["COLUMNS"] = "120"
    sys.path.insert(0, str(ROOT))
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    import sylla.cli  # noqa: F401
    import sylla.metrics.result  # noqa: F401


def _start(case: Case, slot: Path) -> int:
    """Fork a child that runs one case with stdout and stderr going to files in ``slot``."""
    args, out = case
    if out is not None:
        shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
    slot.mkdir(parents=True, exist_ok=True)
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.chdir(ROOT)
        for fd, name in ((1, "out"), (2, "err")):
            target = os.open(slot / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        from sylla.cli import main as sylla_main

        try:
            code = sylla_main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - a traceback is an output to compare too
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(code)
    return 0


def _collect(case: Case, slot: Path, status: int) -> str:
    """What a finished child wrote, as `_run` reports it, the checkout's path masked."""
    def text(name: str) -> str:
        data = (slot / name).read_bytes().decode("utf-8", "replace")
        return data.replace("\r\n", "\n").replace(str(ROOT), "<root>")

    err = re.sub(r"\d+\.\d+ s\b", "<t> s", text("err"))
    files = {k: v.replace(str(ROOT), "<root>") for k, v in _written(case[1]).items()}
    return json.dumps({"rc": os.waitstatus_to_exitcode(status), "out": text("out"), "err": err,
                       "files": files})


def _forked(cases: dict[str, Case], base: Path, jobs: int = 2) -> Iterator[tuple[str, str]]:
    """(name, output) of every case, in order, at most ``jobs`` children at a time."""
    _warm()
    names = list(cases)
    done: dict[str, str] = {}
    running: dict[int, tuple[str, Path]] = {}
    nxt = 0
    for name in names:
        while len(running) < jobs and nxt < len(names):
            slot = base / "slots" / str(nxt)
            running[_start(cases[names[nxt]], slot)] = (names[nxt], slot)
            nxt += 1
        while name not in done:
            pid, status = os.wait()
            finished, slot = running.pop(pid)
            done[finished] = _collect(cases[finished], slot, status)
            shutil.rmtree(slot, ignore_errors=True)
            if nxt < len(names):
                slot = base / "slots" / str(nxt)
                running[_start(cases[names[nxt]], slot)] = (names[nxt], slot)
                nxt += 1
        yield name, done.pop(name)


def main() -> int:
    mode, base = sys.argv[1], Path(sys.argv[2])
    base.mkdir(parents=True, exist_ok=True)
    cases: dict[str, Case] = {
        name: (["metrics", "--format", "json", "--no-progress", *args], None)
        for name, args in _logs(base).items()}
    if "--wide" in sys.argv[3:]:
        cases.update(_wide(base))
    targets = {name: base / (f"{name}.json" if not name.startswith("wide:") else
                             f"wide-{hashlib.sha256(name.encode()).hexdigest()[:16]}.json")
               for name in cases}
    bad = 0
    with ThreadPoolExecutor(2) as pool:
        outputs: Iterable[tuple[str, str]] = (
            _forked(cases, base) if "--forked" in sys.argv[3:]
            else zip(cases, pool.map(_run, cases.values())))
        for name, got in outputs:
            target = targets[name]
            if mode == "record":
                target.write_text(got, encoding="utf-8")
                print(f"recorded {name} (rc {json.loads(got)['rc']})")
            elif target.read_text(encoding="utf-8") != got:
                bad += 1
                print(f"DIFFERS: {name}")
            else:
                print(f"same: {name}")
    print(f"{len(cases)} case(s), {bad} differ(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
