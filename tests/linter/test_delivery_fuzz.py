"""Properties of the delivery check and the curves' reader over mutated deliveries (issue 38):
one field of one row of a delivery in the request's shape replaced by a value no row can hold
(a number of 5,000 digits, nan, inf, a program nested 70,000 deep or 100 KB wide, a
5,000-digit constant, a list nested 70,000 deep, a problem that is no label).

- no traceback: ``check_delivery`` returns, ``read_trials`` returns or raises ``MetricsError``;
- no pass: the mutated file gets an error, so ``sylla lint`` cannot exit 0;
- no number from a row the reader could not place: when the mutated field is one the curves
  read (problem, run, order, trial, accuracy, program), the row is among the bad rows.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.core import Severity
from sylla.grammar.trials.synth import write_delivery
from sylla.linter.deliveries import check_delivery
from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.deliveries import read_trials

pytestmark = pytest.mark.slow

JSON = Path(__file__).resolve().parents[1] / "fixtures" / "trials" / "json"
COLUMNS = ("problem", "run", "order", "trial", "input", "correct", "predicted", "accuracy", "program", "cpu", "count", "nlp", "nll")
QUOTED = {0, 4, 5, 6, 8}
#: the columns the curves read: predictions.csv for accuracy by trial, bests.csv for the search
#: curve (whose correctness is the program's on the trial files, not the accuracy written)
PLACED = {"predictions.csv": {"problem", "run", "order", "trial", "accuracy", "program"},
          "bests.csv": {"problem", "run", "order", "trial", "program", "cpu"}}

NUMBERS = st.sampled_from(["9" * 5000, "-" + "9" * 5000, "nan", "inf", "-inf", "1e999", "", "abc", "1" + "0" * 400])
PROGRAMS = st.sampled_from([
    "(lambda " + "(cons 1 " * 70_000 + "$0" + ")" * 70_001,
    "(lambda (cons 1" + "2" * 5000 + " $0))",
    "(lambda ($0 " + "1 " * 50_000 + "))",
    "(lambda $" + "1" * 5000 + ")",
    "(lambda (cons 7 $0)",
    "(lambda (map $0))",
    "",
])
LISTS = st.sampled_from(["[" * 70_000 + "]" * 70_000, "[" + "9" * 5000 + "]", "[1,2", "nan"])
LABELS = st.sampled_from(["c" + "9" * 5000, "", "046", "c46"])


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("delivery")
    write_delivery(str(folder), [46, 92], bests_per_trial=2, samples=300)
    return folder


def _value(column: str) -> st.SearchStrategy[str]:
    if column == "program":
        return PROGRAMS
    if column == "problem":
        return LABELS
    if column in ("input", "correct", "predicted"):
        return LISTS
    return NUMBERS


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, int, str, str]:
    name = draw(st.sampled_from(["predictions.csv", "bests.csv", "samples.csv"]))
    column = draw(st.sampled_from([c for c in COLUMNS if not (c in ("input", "correct", "predicted") and name == "samples.csv")]))
    return name, draw(st.integers(min_value=2, max_value=200)), column, draw(_value(column))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutations())
def test_a_value_no_row_can_hold_is_an_error_and_never_a_number(clean: Path, mutation: tuple[str, int, str, str]) -> None:
    name, line, column, value = mutation
    if column == "count" and value == "1" + "0" * 400:
        return  # an integer, if an absurd one: nothing bounds how many programs a search considers
    folder = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(clean, folder / "d")
        path = folder / "d" / name
        lines = path.read_text().splitlines()
        fs = next(csv.reader([lines[line - 1]]))
        fs[COLUMNS.index(column)] = value
        lines[line - 1] = ",".join(f'"{v}"' if i in QUOTED else v for i, v in enumerate(fs))
        path.write_text("\n".join(lines) + "\n")
        results, errors = check_delivery(str(folder / "d"), str(JSON))
        assert errors == []
        mine = [f for p, r in results if Path(p).name == name for f in r.findings if f.severity is Severity.ERROR]
        assert mine, (name, line, column, value[:40])
        if column not in PLACED.get(name, ()):
            return
        try:
            data = read_trials(str(folder / "d"), str(JSON))
        except MetricsError:
            return
        assert line in {n for rows in data.bad.get(name, {}).values() for n in rows}, (name, line, column, value[:40], data.bad)
    finally:
        shutil.rmtree(folder)
