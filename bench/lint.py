"""Benchmark ``sylla lint`` against ``json.loads`` + ``jsonschema`` validation of the same files.

Prints ratios measured in one run (so the machine's speed cancels out):
- 200 typical syllabi linted in one process vs. json.loads + jsonschema on each,
- one ~5 MB syllabus (~100k instructions), same comparison,
- ``sylla lint`` start-up (one small file) vs. ``python -c pass``, medians of several runs;
- ``sylla lint DIR`` on 400 distinct syllabi with an empty and then a warm schema cache, vs.
  the same run with the cache off (``SYLLA_NO_CACHE=1``).
Targets: <= 2x on the 200 files, start-up <= 6x a bare interpreter; the cache never slower than
no cache.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sylla.grammar.syllabus.schema import schema
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.linter import Config, lint


def typical(i: int) -> str:
    tasks = ["Pong", "Breakout", "Freeway"][: 1 + i % 3]
    out = []
    for n, task in enumerate(tasks, 1):
        out.append('    {"$phase": "%d.train"},' % n)
        for w in (0.15, 0.2, 0.25)[: 1 + i % 3]:
            out.append('    {"$repeat": {"$episode": "%s", "bot/paddle/width": %s}, "count": 5000},' % (task, w))
        out.append('    {"$phase": "%d.test"},' % n)
        out.append('    {"$info": {"disable_updates": true}},')
        for t in tasks:
            out.append('    {"$repeat": {"$episode": "%s"}, "count": 100},' % t)
        out.append('    {"$info": {}},')
    out[-1] = out[-1].rstrip(",")
    return '{\n  "name": "s%d",\n  "contains": "episodes",\n  "instructions": [\n%s\n  ]\n}\n' % (i, "\n".join(out))


def big() -> str:
    return phase_pairs(instructions=100_000)


def baseline(texts: list[str]) -> float:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    start = time.perf_counter()
    for t in texts:
        assert not list(validator.iter_errors(json.loads(t)))
    return time.perf_counter() - start


def ours(texts: list[str]) -> float:
    config = Config()
    start = time.perf_counter()
    for i, t in enumerate(texts):
        lint(t, f"s{i}.json", config)
    return time.perf_counter() - start


def best(fn, arg, n: int = 3) -> float:
    return min(fn(arg) for _ in range(n))


def startup(runs: int = 7) -> tuple[float, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        fh.write(typical(1))
    sylla = [sys.executable, "-m", "sylla", "lint", fh.name]
    bare = [sys.executable, "-c", "pass"]

    def median(cmd: list[str]) -> float:
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True)
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    median(sylla)  # warm the file cache and .pyc files
    result = median(sylla), median(bare)
    Path(fh.name).unlink()
    return result


def directory_runs(n: int = 400) -> tuple[float, float, float]:
    """Wall time of ``sylla lint DIR`` on ``n`` distinct files: empty cache, warm cache, no
    cache (the cache used to be rewritten after every file)."""
    import os
    import random

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "syllabi"
        root.mkdir()
        for i in range(n):
            text = typical(i).replace("5000", str(rng.randint(100, 99_999)), 2)
            (root / f"s{i}.json").write_text(text)
        cmd = [sys.executable, "-m", "sylla", "lint", str(root)]

        def timed(**env: str) -> float:
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, env={**os.environ, "XDG_CACHE_HOME": tmp, **env})
            return time.perf_counter() - t

        cold, warm = timed(), timed()
        return cold, warm, timed(SYLLA_NO_CACHE="1")


def main() -> None:
    texts = [typical(i) for i in range(200)]
    ours(texts[:5])
    baseline(texts[:5])
    b, o = best(baseline, texts), best(ours, texts)
    print(f"200 syllabi: lint {o * 1000:.1f} ms, json.loads+jsonschema {b * 1000:.1f} ms, ratio {o / b:.2f}x (target <= 2x)")
    huge = big()
    b, o = best(baseline, [huge], 1), best(ours, [huge], 1)
    print(f"{len(huge) / 1e6:.1f} MB syllabus ({huge.count(chr(10))} instructions): lint {o:.2f} s, json.loads+jsonschema {b:.2f} s, ratio {o / b:.2f}x")
    s, p = startup()
    print(f"start-up: sylla lint {s * 1000:.0f} ms, python -c pass {p * 1000:.0f} ms, ratio {s / p:.1f}x (target <= 6x)")
    cold, warm, off = directory_runs()
    print(f"sylla lint DIR, 400 files: empty cache {cold:.2f} s, warm cache {warm:.2f} s, no cache "
          f"{off:.2f} s (cold/off {cold / off:.2f}x, warm/off {warm / off:.2f}x; target <= 1x)")


if __name__ == "__main__":
    main()
