"""The log readers' long fuzz campaign: N structure-aware mutants of real logs through
``compute_metrics`` (the property of ``fuzzing.readers.check`` in ``tests/fuzzing/``: refused with a
located error, or computed with a new warning, or computed to the original's numbers; never a
traceback), outside CI.

    python bench/reader_fuzz.py 100000 [--seed S] [--jobs J] [--minutes M] [--large] [--memory-mb MB] [--out failures.jsonl]

The logs: the plain log ``sylla simulate`` writes for the two-task syllabus, in every plain
format (CSV, TSV, JSON Lines, Parquet); the l2logger logs of tests/fixtures/metrics (one worker,
several workers), each read by the whole-log reader and by the block reader with the small-log
parser or pyarrow; with ``--large``, also a 15,500-episode l2logger log (1.3 MB, past the size
the small-log parser takes) simulated from examples/cl-pong.json. Each mutant is read with or
without its syllabus and ``--allow-partial``, as its seed draws. Each job's address space is capped
(``--memory-mb``, 6 GiB), so memory that grows with a value instead of the input's size is a
MemoryError, counted as a traceback. Mutant ``k`` of seed ``S`` is
built from ``random.Random(f"{S}:{k}")``, so any one is replayable.

Prints a progress line every 2,000 mutants and, at the end, how many were refused, computed
with a new warning, or computed unchanged, and the counts per family and property violated; the first few failing mutants of each property are written to ``--out`` (JSON lines:
seed, k, family, what was mutated, the detail).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

# the harness is test code (tests/fuzzing/), not part of the package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from campaign import chunk_results, write_examples
from fuzzing import readers as fuzz

from sylla.metrics.readers import l2logger_stream

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "metrics"
SYLLABUS = FIXTURES / "two_tasks.json"
PLAIN_LOG = FIXTURES / "simulated_two_tasks.csv"
L2LOGGER = {"simulated_two_tasks_l2logger": SYLLABUS, "l2logger_v11": None, "l2logger_workers": None}
PARSERS = ("whole", "small", "pyarrow")
#: the bytes of block files up to which the small-log parser reads a log (the campaign sets it
#: to -1 for a mutant that pyarrow must parse, and back)
SMALL = l2logger_stream.SMALL


def _large(root: Path) -> Path:
    """The cl-pong example's simulated l2logger log (1.3 MB), written once per worker."""
    from sylla.metrics.simulate import simulate, write_l2logger
    from sylla.metrics.syllabus import load_syllabus

    log = root / "cl_pong_l2logger"
    if not log.exists():
        write_l2logger(simulate(load_syllabus(REPO / "examples" / "cl-pong.json")), log)
    return log


def _originals(root: Path, large: bool) -> tuple[dict[tuple[str, bool], dict[str, Any]], dict[str, tuple[Path, Path | None]]]:
    """Each unmutated log's metrics document, with and without its syllabus."""
    bases: dict[str, tuple[Path, Path | None]] = {n: (FIXTURES / n, s) for n, s in L2LOGGER.items()}
    if large:
        bases["cl_pong_l2logger"] = (_large(root), REPO / "examples" / "cl-pong.json")
    docs: dict[tuple[str, bool], dict[str, Any]] = {}
    table = fuzz.read_table(PLAIN_LOG)
    for fmt in fuzz.PLAIN:
        for with_syllabus in (False, True):
            with tempfile.TemporaryDirectory(dir=root) as tmp:
                log = Path(tmp) / f"log.{fmt}"
                fuzz.write_table(table, log, fmt)
                docs[(fmt, with_syllabus)] = _doc(log, SYLLABUS if with_syllabus else None)
    for name, (source, syllabus) in bases.items():
        for with_syllabus in (False, True) if syllabus else (False,):
            with tempfile.TemporaryDirectory(dir=root) as tmp:
                log = Path(shutil.copytree(source, Path(tmp) / name))
                docs[(name, with_syllabus)] = _doc(log, syllabus if with_syllabus else None)
    return docs, bases


def _doc(log: Path, syllabus: Path | None) -> dict[str, Any]:
    doc = fuzz.outcome(log, syllabus)
    if doc is None:
        raise SystemExit(f"the unmutated log {log} is refused: fix the corpus first")
    return doc


def _bound_memory(megabytes: int) -> None:
    """Each worker's address space capped, so that a reader allocating far beyond its input (an
    array as long as a stray experience number, issue 38) raises MemoryError, which the
    property counts as a traceback, instead of taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


def run_chunk(seed: int, start: int, stop: int, large: bool) -> tuple[int, Counter, Counter, list[dict]]:
    counts: Counter = Counter()
    outcomes: Counter = Counter()
    examples: list[dict] = []
    root = Path(tempfile.mkdtemp(prefix="sylla-reader-fuzz-"))
    try:
        docs, bases = _originals(root, large)
        table = fuzz.read_table(PLAIN_LOG)
        families = list(fuzz.PLAIN) + list(bases)
        for k in range(start, stop):
            rng = Random(f"{seed}:{k}")
            family = rng.choice(families)
            partial = rng.random() < 0.3
            with tempfile.TemporaryDirectory(dir=root) as tmp:
                if family in fuzz.PLAIN:
                    with_syllabus = rng.random() < 0.5
                    syllabus = SYLLABUS if with_syllabus else None
                    mutant, what = fuzz.mutate_table(table, rng, family, rng.randint(1, 3))
                    log = Path(tmp) / f"log.{family}"
                    fuzz.write_table(mutant, log, family)
                    parser = "whole"
                else:
                    source, own = bases[family]
                    with_syllabus = own is not None and rng.random() < 0.5
                    syllabus = own if with_syllabus else None
                    log = Path(tmp) / family
                    what = fuzz.mutate_l2logger(source, log, rng, rng.randint(1, 2))
                    parser = rng.choice(PARSERS)
                l2logger_stream.SMALL = -1 if parser == "pyarrow" else SMALL
                result, violations = fuzz.verdict(log, docs[(family, with_syllabus)], syllabus,
                                                  partial, stream=parser != "whole")
            outcomes[result] += 1
            for v in violations:
                key = f"{family}: {v.prop}"
                counts[key] += 1
                if counts[key] <= 5:
                    examples.append({"seed": seed, "k": k, "family": family, "parser": parser,
                                     "syllabus": with_syllabus, "allow_partial": partial,
                                     "mutation": what, "property": v.prop,
                                     "detail": v.detail[-2000:]})
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return stop - start, counts, outcomes, examples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of mutants")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--large", action="store_true", help="add a 1.3 MB l2logger log (pyarrow's parse)")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long (the counts say how far it got)")
    ap.add_argument("--memory-mb", type=int, default=6144, help="each job's address space (a blow-up is then a MemoryError)")
    ap.add_argument("--out", default="reader-fuzz-failures.jsonl")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    done, counts, outcomes, examples = 0, Counter(), Counter(), []
    chunks = [(args.seed, s, min(s + args.chunk, args.n), args.large) for s in range(0, args.n, args.chunk)]
    for n, c, o, ex in chunk_results(run_chunk, chunks, args.jobs, args.minutes, _bound_memory, (args.memory_mb,)):
        done += n
        counts.update(c)
        outcomes.update(o)
        examples.extend(ex)
        if done % 2000 < args.chunk:
            rate = done / (time.perf_counter() - t0)
            print(f"{done} mutants, {sum(counts.values())} violations, {rate:.0f}/s", flush=True)
    write_examples(args.out, examples)
    elapsed = time.perf_counter() - t0
    print(f"{done} mutants in {elapsed:.0f} s ({done / elapsed:.1f}/s), seed {args.seed}: "
          + ", ".join(f"{n} {what}" for what, n in outcomes.most_common()))
    for key, n in counts.most_common():
        print(f"  {n:8d}  {key}")
    if not counts:
        print("  no property violated")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
