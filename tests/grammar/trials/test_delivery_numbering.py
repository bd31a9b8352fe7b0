"""How a delivery file numbers runs, orderings and trials (``grammar/trials/numbering.py``):
from the request and the trial files, never from a vote that one row can swing (issue 38).

The property: a delivery in the request's shape (generated, then written numbered from 1 or
from 0, with or without the input columns) gets one stray row, a copy of one of its rows with
its run, ordering or trial set to a value its own numbering does not have. Reading it must
never move a legitimate row: either every other row keeps its true (problem, run, order,
trial) and the stray row is set aside by its line number, or the column's numbering is said to
be untold, with an error that names the stray row."""

from __future__ import annotations

import csv
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.trials.delivery import problem_of, read_delivery
from sylla.grammar.trials.numbering import TOPS
from sylla.grammar.trials.scoring import Scorer, load_trials
from sylla.grammar.trials.synth import HEADER, write_delivery

JSON = Path(__file__).resolve().parents[2] / "fixtures" / "trials" / "json"
QUOTED = {0, 4, 5, 6, 8}
SHORT = (0, 1, 2, 3, 8, 9, 10)  # problem,run,order,trial,program,cpu,count of the request's columns
INDEX = {"run": 1, "order": 2, "trial": 3}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    folder = tmp_path_factory.mktemp("delivery")
    write_delivery(str(folder), [46, 92], bests_per_trial=2)
    with open(folder / "predictions.csv", newline="") as fh:
        return list(csv.reader(fh))[1:]


@pytest.fixture(scope="module")
def shown() -> dict:
    trials, errors = load_trials(str(JSON))
    assert not errors
    return Scorer(trials).shown_examples


def _write(path: Path, rows: list[list[str]], inputs: bool) -> None:
    if inputs:
        lines = [HEADER] + [",".join(f'"{v}"' if i in QUOTED else v for i, v in enumerate(r)) for r in rows]
    else:  # the known header-less 7-column shape
        lines = [",".join(f'"{r[i]}"' if i in QUOTED else r[i] for i in SHORT) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    from_zero=st.sampled_from([(), ("trial",), ("order", "trial"), ("run", "order", "trial")]),
    inputs=st.booleans(),
    column=st.sampled_from(["run", "order", "trial"]),
    where=st.sampled_from(["below", "the other numbering's", "above"]),
    source=st.integers(min_value=0, max_value=10_000),
    at=st.integers(min_value=0, max_value=10_000),
)
def test_one_stray_row_never_moves_the_others(
    clean: list[list[str]], shown: dict, from_zero: tuple[str, ...], inputs: bool, column: str, where: str, source: int, at: int
) -> None:
    shift = {c: int(c in from_zero) for c in INDEX}
    rows = [[v if i not in INDEX.values() else str(int(v) - shift[c]) for i, v in enumerate(r) for c in [_col(i)]]
            for r in clean]
    top, low = TOPS[column], 1 - shift[column]
    value = {"below": low - 1, "the other numbering's": top if shift[column] else 0, "above": top + 1 + 7 * (source % 3)}[where]
    stray = list(rows[source % len(rows)])
    stray[INDEX[column]] = str(value)
    k = at % (len(rows) + 1)
    rows.insert(k, stray)
    truth = [tuple(r[:4]) for r in clean]
    stray_line = k + 1 + int(inputs)  # 1-based, after the header when there is one
    folder = Path(tempfile.mkdtemp())
    try:
        _write(folder / "bests.csv", rows, inputs)
        table = read_delivery(str(folder), shown).bests
    finally:
        shutil.rmtree(folder)
    assert table is not None
    if column in table.untold:
        note = table.untold[column]
        assert note.severity == "error" and note in table.notes
        assert f"row {stray_line}" in note.message or f"rows {stray_line}," in note.message
        return
    got = [(f'"c{problem_of(p):03d}"'.strip('"'), str(r), str(o), str(t))
           for p, r, o, t in zip(*(table.data[c] for c in ("problem", "run", "order", "trial")))]
    placed = [g for g, line in zip(got, table.lines) if line != stray_line]
    assert placed == truth, "a legitimate row moved"
    assert any(stray_line in lines for lines in table.bad.values()), table.bad


def _col(i: int) -> str:
    return next((c for c, j in INDEX.items() if j == i), "")
