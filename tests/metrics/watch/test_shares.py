"""The run laid out from several workers' episodes over the arrays of the last update
(`shares.Layout`): the same run as laying it out anew, with the pieces before the first one
that changed left where they are."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import schedule
from sylla.metrics.data import BLOCK_COLUMNS, Columns
from sylla.metrics.watch.growing import Growing
from sylla.metrics.watch.logged import LoggedRows
from sylla.metrics.watch.shares import Layout, Share

SYLLABUS = """{"name": "s", "author": "a", "contains": "episodes", "default_params": {},
"instructions": [{"$repeat": {"$episode": "Pong"}, "count": 12},
{"$repeat": {"$episode": "Breakout"}, "count": 9}, {"$repeat": {"$episode": "Pong"}, "count": 6}]}"""


def _shares(workers: int, rows: bool) -> list[Share]:
    model = parse(SYLLABUS, "s.json").model
    empty = np.empty(0)
    return [Share(f"worker{k}", schedule(model, workers=workers, worker=k), Growing(empty),
                  Growing(empty), LoggedRows(empty, empty, np.empty(0, np.int64)) if rows
                  else None) for k in range(workers)]


def _blocks(shares: list[Share]) -> Columns:
    present = np.sum([s.present() for s in shares], axis=0)
    stops = np.cumsum(present)
    have = present > 0
    data = {c: np.zeros(int(have.sum()), dtype=np.int64) for c in BLOCK_COLUMNS}
    data.update(block=np.flatnonzero(have), start=(stops - present)[have], stop=stops[have],
                count=present[have])
    return Columns(data, BLOCK_COLUMNS)


def _fresh(shares: list[Share]) -> tuple[np.ndarray, ...]:
    """The run laid out anew: block by block, worker by worker."""
    pieces = [(s, int(a), int(z)) for b in range(len(shares[0].bounds)) for s in shares
              for a, z in [np.clip(s.bounds[b], 0, s.n)] if z > a]
    out = [np.concatenate([s.perf.values[a:z] for s, a, z in pieces]),
           np.concatenate([s.exp.values[a:z] for s, a, z in pieces])]
    if shares[0].logged is not None:
        out += [np.concatenate([s.logged.perf[s.logged.ends[a]:s.logged.ends[z]]
                                for s, a, z in pieces]),
                np.concatenate([s.logged.exp[s.logged.ends[a]:s.logged.ends[z]]
                                for s, a, z in pieces])]
    return tuple(out)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(2, 3), st.booleans(), st.lists(st.lists(st.integers(0, 4), min_size=3,
                                                             max_size=3), min_size=1,
                                                    max_size=8))
def test_a_run_laid_out_in_place_is_the_run_laid_out_anew(workers, rows, steps):
    shares = _shares(workers, rows)
    layout = Layout()
    value = 0.0
    for step in steps:
        for k, share in enumerate(shares):
            more = min(step[k], share.sched.episodes - share.n)
            if not more:
                continue
            perf = np.arange(value, value + more)
            value += more
            nrows = (np.arange(more) % 3 + 1) if rows else None
            share.extend(perf, perf, perf.repeat(nrows) if rows else None, nrows)
        if not any(s.n for s in shares):
            continue
        run = layout(shares, "run", _blocks(shares), False)
        got = (run.perf, run.exp) + ((run.rows.perf, run.rows.exp) if rows else ())
        for a, e in zip(got, _fresh(shares)):
            assert a.tobytes() == e.tobytes()
