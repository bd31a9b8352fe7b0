"""Synthetic trial folders and deliveries in the exact shapes of the wave-3 request, for
tests, fixtures and ``bench/trials.py`` (real trial data is not redistributable here).

The examples' outputs come from plain Python versions of the problems (``TRUTH``), never from
the DSL evaluator, so tests that compare the evaluator with trial data can fail. The deliveries'
columns (predicted, nlp, nll) are computed with sylla's DSL modules, as a model would compute them.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Callable

from .model import ORDERINGS, RUNS, SAMPLES, TRIALS, value_max

Fn = Callable[[list[int]], list[int]]

#: problem -> (the request's program text, a Python version); other problems reuse these
#: shapes by problem number (``truth``), with their own ids and ranges
TRUTH: dict[int, tuple[str, Fn, int]] = {  # (program, function, minimum input length)
    45: ("(lambda $0)", lambda xs: list(xs), 0),
    46: ("(lambda (cons 7 $0))", lambda xs: [7, *xs], 0),
    47: ("(lambda (cons 9 (cons 6 (cons 3 (cons 8 (cons 5 $0))))))", lambda xs: [9, 6, 3, 8, 5, *xs], 0),
    48: ("(lambda (take 1 $0))", lambda xs: xs[:1], 0),
    49: ("(lambda (drop 1 $0))", lambda xs: xs[1:], 0),
    61: ("(lambda (singleton (last $0)))", lambda xs: xs[-1:], 1),
    77: ("(lambda (singleton (length $0)))", lambda xs: [len(xs)], 0),
    80: ("(lambda (reverse $0))", lambda xs: xs[::-1], 0),
    81: ("(lambda (singleton (third $0)))", lambda xs: xs[2:3], 3),
    92: ("(lambda (cons 92 (cons 63 (cons 34 (cons 18 (cons 55 $0))))))", lambda xs: [92, 63, 34, 18, 55, *xs], 0),
}


def truth(problem: int) -> tuple[str, Fn, int]:
    if problem in TRUTH:
        return TRUTH[problem]
    keys = [k for k in TRUTH if k != 92 and k != 81] if problem <= 80 else [81, 92]
    return TRUTH[keys[problem % len(keys)]]


def examples(problem: int, seed: int = 0) -> list[tuple[list[int], list[int]]]:
    """``TRIALS`` distinct examples of a problem (one per trial): inputs of 0..10 values in the problem's range."""
    rng = random.Random(problem * 7919 + seed)
    _, fn, min_len = truth(problem)
    top = value_max(problem)
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[list[int], list[int]]] = []
    while len(out) < TRIALS:
        xs = [rng.randint(0, top) for _ in range(rng.randint(min_len, 10))]
        if tuple(xs) in seen:
            continue
        seen.add(tuple(xs))
        out.append((xs, fn(xs)))
    return out


def orderings(problem: int, n: int = ORDERINGS) -> list[list[tuple[list[int], list[int]]]]:
    base = examples(problem)
    rng = random.Random(problem)
    out = []
    for _ in range(n):
        perm = base[:]
        rng.shuffle(perm)
        out.append(perm)
    return out


def trial_text(problem: int, data: list[tuple[list[int], list[int]]]) -> str:
    """A trial file as the request's ``json/`` folder writes it."""
    doc = {"id": f"c{problem:03d}", "program": truth(problem)[0], "data": [{"i": i, "o": o} for i, o in data]}
    return json.dumps(doc)


def write_trials(folder: str, problems: list[int] | range = range(1, 101), n: int = ORDERINGS) -> None:
    os.makedirs(folder, exist_ok=True)
    for p in problems:
        for k, data in enumerate(orderings(p, n), 1):
            with open(os.path.join(folder, f"c{p:03d}_{k}.json"), "w", encoding="utf-8") as fh:
                fh.write(trial_text(p, data))


def program_pool(problem: int) -> list[str]:
    """Candidate programs of the small (or large) DSL a model might consider on a problem."""
    top = value_max(problem)
    consts = [7, 9, 5, 3, 0, 1, 2, 4, 6, 8] if top == 9 else [92, 55, 18, 7, 63, 34, 99, 0, 1, 42]
    pool = ["(lambda $0)", "(lambda empty)", "(lambda (tail $0))", "(lambda (tail (tail $0)))",
            "(lambda (cons (head $0) empty))", "(lambda (cons (head $0) $0))",
            "(lambda (if (is_empty $0) empty (tail $0)))",
            "(lambda (cons (fix $0 (lambda (lambda (if (is_empty $0) 0 (+ 1 ($1 (tail $0))))))) empty))"]
    pool += [f"(lambda (cons {c} $0))" for c in consts]
    pool += [f"(lambda (cons {c} (cons {d} $0)))" for c in consts[:2] for d in consts[2:4]]
    if problem in (47, 92):
        pool.append(truth(problem)[0])
    return pool


HEADER = "problem,run,order,trial,input,correct,predicted,accuracy,program,cpu,count,nlp,nll"


def _show(xs: list[int] | tuple | None) -> str:
    from sylla.grammar.listdsl.evaluate import show_value  # noqa: PLC0415 - lazy: start-up, lark loads only when used

    return "" if xs is None else show_value(tuple(xs))


class _Scorer:
    """Evaluations, priors and hit counts, cached as a model would cache them."""

    def __init__(self) -> None:
        self.out: dict[tuple[str, int, tuple[int, ...]], object] = {}
        self.prior: dict[tuple[str, int], float] = {}

    def run(self, program: str, top: int, xs: list[int]) -> object:
        from sylla.grammar.listdsl import parse_program  # noqa: PLC0415 - lazy: start-up, lark loads only when used
        from sylla.grammar.listdsl.evaluate import run  # noqa: PLC0415 - lazy: start-up, lark loads only when used

        key = (program, top, tuple(xs))
        if key not in self.out:
            self.out[key] = run(parse_program(program, top), xs, top)
        return self.out[key]

    def nlp(self, program: str, top: int) -> float:
        from sylla.grammar.listdsl import parse_program  # noqa: PLC0415 - lazy: start-up, lark loads only when used
        from sylla.grammar.listdsl.prior import nlp  # noqa: PLC0415 - lazy: start-up, lark loads only when used

        key = (program, top)
        if key not in self.prior:
            self.prior[key] = nlp(parse_program(program, top), top)
        return self.prior[key]


def write_delivery(folder: str, problems: list[int] | range = range(1, 101), runs: int = RUNS, orders: int = ORDERINGS,
                   bests_per_trial: int = 7, deviant: bool = False, seed: int = 0, samples: int = SAMPLES) -> dict[str, int]:
    """A delivery folder: predictions.csv, bests.csv, samples.csv, description.md in the
    request's shape; ``deviant`` writes the known real deviations instead (header-less 7-column
    bests.csv with trials from 0, one run, no predictions.csv, header-less samples0/1.csv,
    typographic quotes). Returns row counts."""
    from sylla.grammar.listdsl.evaluate import EvalError  # noqa: PLC0415 - lazy: start-up, lark loads only when used
    from sylla.grammar.listdsl.prior import nll as nll_of  # noqa: PLC0415 - lazy: start-up, lark loads only when used

    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    sc = _Scorer()
    q = "”" if deviant else '"'
    pred_rows: list[str] = []
    best_rows: list[str] = []
    run_range = range(1, 2) if deviant else range(1, runs + 1)
    for p in problems:
        top = value_max(p)
        pool = program_pool(p)
        for order, data in enumerate(orderings(p, orders), 1):
            for run in run_range:
                for trial in range(1, TRIALS + 1):
                    train, (tin, tout) = data[: trial - 1], data[trial - 1]
                    chosen = rng.sample(pool, min(bests_per_trial, len(pool)))
                    scored = []
                    for prog in chosen:
                        hits = sum(sc.run(prog, top, i) == tuple(o) for i, o in train)
                        scored.append((sc.nlp(prog, top) + nll_of(hits, len(train) - hits), prog, hits))
                    scored.sort(key=lambda s: -s[0])
                    bests, last = [], None
                    for s in scored:  # strictly improving: a best-so-far beats everything before it
                        if last is None or s[0] < last:
                            bests.append(s)
                            last = s[0]
                    cpu, count = 0.0, 0
                    t_label = trial - 1 if deviant else trial
                    for _post, prog, hits in bests:
                        cpu += rng.uniform(0.0001, 60.0)
                        count += rng.randint(1, 5000)
                        out: Any = sc.run(prog, top, tin)
                        pred = None if isinstance(out, EvalError) else out
                        acc = int(pred is not None and tuple(pred) == tuple(tout))
                        nlp, nll = sc.nlp(prog, top), nll_of(hits, len(train) - hits)
                        if deviant:
                            best_rows.append(f"{q}c{p:03d}{q},{run},{order},{t_label},{q}{prog}{q},{cpu:.5f},{count}")
                        else:
                            best_rows.append(f'"c{p:03d}",{run},{order},{trial},"{_show(tin)}","{_show(tout)}","{_show(pred)}",{acc},"{prog}",{cpu:.5f},{count},{nlp!r},{nll!r}')
                    if not deviant:
                        pred_rows.append(best_rows[-1])
    counts = {"bests": len(best_rows), "predictions": len(pred_rows)}
    if deviant:
        _write(os.path.join(folder, "bests.csv"), best_rows, None)
        half = samples // 2
        picks = [rng.choice(best_rows) for _ in range(samples)]
        _write(os.path.join(folder, "samples0.csv"), picks[:half], None)
        _write(os.path.join(folder, "samples1.csv"), picks[half:], None)
    else:
        _write(os.path.join(folder, "predictions.csv"), pred_rows, HEADER)
        _write(os.path.join(folder, "bests.csv"), best_rows, HEADER)
        _write(os.path.join(folder, "samples.csv"), [rng.choice(best_rows) for _ in range(samples)], HEADER)
    with open(os.path.join(folder, "description.md"), "w", encoding="utf-8") as fh:
        fh.write("# Enumerative baseline\n\nThe model enumerates programs of the list DSL in order of their prior "
                 "and keeps the best-scoring one (Ellis et al. 2021).\n\nEach trial searches for 10 minutes with "
                 "no offline training; the background knowledge is the DSL of the request.\n")
    return counts


def _write(path: str, rows: list[str], header: str | None) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        if header:
            fh.write(header + "\n")
        fh.write("\n".join(rows))
        if rows:
            fh.write("\n")


#: how deep and how long the edge trial files go: past Python's recursion limit (and json's) and
#: past the 4,300 digits ``int`` converts (issue 38)
EDGE_DEPTH, EDGE_DIGITS = 70_000, 5_000


def write_edge_trials(source: str, folder: str) -> dict[str, str]:
    """Two trial files past Python's limits, made from the request-shaped files of ``source``:
    ``c046_1.json`` with its first input nested ``EDGE_DEPTH`` deep, ``c046_2.json`` with the
    first value of its first output ``EDGE_DIGITS`` digits long. Written to ``folder`` (not kept
    among the fixtures: every JSON fixture is also a seed of the syllabus parser's own tests).
    Returns name -> path."""
    os.makedirs(folder, exist_ok=True)
    out: dict[str, str] = {}
    with open(os.path.join(source, "c046_1.json"), encoding="utf-8") as fh:
        text = fh.read()
    at = text.index('"i": [') + len('"i": ')
    end = text.index("]", at) + 1
    out["c046_1.json"] = "[" * (EDGE_DEPTH - 1) + text[at:end] + "]" * (EDGE_DEPTH - 1)
    out["c046_1.json"] = text[:at] + out["c046_1.json"] + text[end:]
    with open(os.path.join(source, "c046_2.json"), encoding="utf-8") as fh:
        text = fh.read()
    at = text.index('"o": [') + len('"o": [')
    end = min(text.index(",", at), text.index("]", at))
    out["c046_2.json"] = text[:at] + "9" * EDGE_DIGITS + text[end:]
    paths = {}
    for name, body in out.items():
        paths[name] = os.path.join(folder, name)
        with open(paths[name], "w", encoding="utf-8") as fh:
            fh.write(body)
    return paths
