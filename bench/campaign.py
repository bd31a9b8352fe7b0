"""The driver the long fuzz campaigns share (``bench/fuzz.py``, ``bench/reader_fuzz.py``).

A campaign is a list of chunks of mutants, each run by a worker process. The pool keeps two
chunks per job in flight, yields each chunk's result in order, and after the time budget starts
no new chunk, so ``--minutes`` ends a campaign with counts that say how far it got.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any


def chunk_results(run_chunk: Callable[..., Any], chunks: Iterable[tuple], jobs: int, minutes: float | None,
                  initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> Iterator[Any]:
    """``run_chunk(*chunk)`` for each chunk, in order, on ``jobs`` processes."""
    deadline = time.perf_counter() + minutes * 60 if minutes else None
    with ProcessPoolExecutor(jobs, initializer=initializer, initargs=initargs) as pool:
        pending = iter(chunks)
        running = [pool.submit(run_chunk, *c) for c in islice(pending, jobs * 2)]
        while running:
            yield running.pop(0).result()
            if deadline is None or time.perf_counter() < deadline:
                running.extend(pool.submit(run_chunk, *c) for c in islice(pending, 1))


def write_examples(path: str | Path, examples: Iterable[dict]) -> None:
    """The failing examples, one JSON object a line, for replaying them."""
    with open(path, "w", encoding="utf-8") as fh:
        for e in examples:
            fh.write(json.dumps(e, ensure_ascii=False) + "\n")
