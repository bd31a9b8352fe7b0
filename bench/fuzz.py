"""The long fuzz campaign: N structure-aware mutants of the fixtures through parse, lint,
``--fix`` and ``fmt`` (the properties of ``sylla.linter.fuzz.check``), outside CI.

    python bench/fuzz.py 1000000 [--seed S] [--jobs J] [--minutes M] [--out failures.jsonl]

Each input is replayable: mutant ``k`` of seed ``S`` is built from ``random.Random(f"{S}:{k}")``.
Prints a progress line every 10 000 inputs and, at the end (after N inputs, or after
``--minutes``, whichever comes first), the counts per property violated; the first few
failing inputs of each property are written to ``--out`` (JSON lines).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# The schema's on-disk cache of known-valid instructions is not under test here; a campaign
# of a million distinct mutants would rewrite it for every new instruction, from two jobs.
os.environ.setdefault("SYLLA_NO_CACHE", "1")

from sylla.linter.fuzz import check, configs, mutate

REPO = Path(__file__).resolve().parent.parent


def corpus() -> list[tuple[str, str]]:
    """The fixtures (tests/fixtures/**.json*) and the examples, as (name, text)."""
    files = sorted(REPO.glob("tests/fixtures/**/*.json*")) + sorted(REPO.glob("examples/**/*.json*"))
    out = []
    for f in files:
        try:
            out.append((str(f.relative_to(REPO)), f.read_bytes().decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return out


def run_chunk(seed: int, start: int, stop: int) -> tuple[int, Counter, list[dict]]:
    seeds = corpus()
    all_configs = configs()
    counts: Counter = Counter()
    examples: list[dict] = []
    for k in range(start, stop):
        rng = random.Random(f"{seed}:{k}")
        name, text = rng.choice(seeds)
        mutant = mutate(text, rng, rng.randint(1, 4))
        config = rng.choice(all_configs)
        path = rng.choice(["fuzz.json", "fuzz.jsonc"])
        for v in check(mutant, config, path):
            counts[v.prop] += 1
            if counts[v.prop] <= 5:
                examples.append({"k": k, "seed": seed, "source": name, "profile": config.profile, "type": config.type,
                                 "path": path, "property": v.prop, "detail": v.detail[:500], "input": mutant})
    return stop - start, counts, examples


def _take(it, n: int) -> list:
    out = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of mutants")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long (the counts say how far it got)")
    ap.add_argument("--out", default="fuzz-failures.jsonl")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    done, counts, examples = 0, Counter(), []
    chunks = [(args.seed, s, min(s + args.chunk, args.n)) for s in range(0, args.n, args.chunk)]
    deadline = t0 + args.minutes * 60 if args.minutes else None
    with ProcessPoolExecutor(args.jobs) as pool:
        pending = iter(chunks)
        running = [pool.submit(run_chunk, *c) for c in _take(pending, args.jobs * 2)]
        while running:
            future = running.pop(0)
            n, c, ex = future.result()
            done += n
            counts.update(c)
            examples.extend(e for e in ex if sum(1 for x in examples if x["property"] == e["property"]) < 5)
            if done % 10_000 < args.chunk:
                rate = done / (time.perf_counter() - t0)
                print(f"{done} inputs, {sum(counts.values())} violations, {rate:.0f}/s", flush=True)
            if deadline is None or time.perf_counter() < deadline:
                running.extend(pool.submit(run_chunk, *c) for c in _take(pending, 1))
    with open(args.out, "w", encoding="utf-8") as fh:
        for e in examples:
            fh.write(json.dumps(e, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - t0
    print(f"{done} inputs in {elapsed:.0f} s ({done / elapsed:.0f}/s), seed {args.seed}")
    for prop, n in counts.most_common():
        print(f"  {n:8d}  {prop}")
    if not counts:
        print("  no property violated")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
