"""How one delivery file numbers its runs, orderings and trials: from the request and the trial
files, never from a vote that one row can swing.

The request numbers all three from 1: runs 1..5, orderings 1..5, trials 1..11. A known deviant
shape numbers them from 0. Each row says what it can about its file's numbering:

- with its ``input`` and ``correct`` and the trial files of its problem, the numberings under
  which they are its trial's test example (trial N of ordering K tests on example N of
  ``cPPP_K.json``). A row that is no test example under either says nothing here; the test-example
  check (W916) names it;
- otherwise its value: 0 exists only in a numbering from 0, the last value (5 runs, 5 orderings,
  11 trials) only in the request's numbering from 1, the values between in both.

The values are asked first; the inputs only when the values disagree (a 0 and an 11 in one
file). A column is read as numbered from 0 when some row allows only that and no row allows only
the request's numbering; as the request numbers it when no row allows only a numbering from 0.
When rows of both kinds are present the numbering cannot be told: both groups are named and the
column is left as written, so that nothing downstream computes on a guess. Rows outside the
numbering read (a trial 12, a run -1, a trial 11 in a file numbered from 0) are named as rows
that cannot be placed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from .model import ORDERINGS, RUNS, TRIALS

#: the request's top value of each numbered column (its numbering is 1..top)
TOPS = {"run": RUNS, "order": ORDERINGS, "trial": TRIALS}

#: (problem, ordering) -> the test examples of its trials as the deliverables write them
ShownExamples = Mapping[tuple[int, int], Sequence[tuple[str, str]]]


@dataclass
class Column:
    """What was decided for one column: ``shift`` 1 when it is numbered from 0 (None when it
    cannot be told); the row indices that allow only a numbering from 0 (``zero``) or only the
    request's (``one``), each with the reason of its first row (all of them when the two
    disagree, else the first); and the rows outside the numbering read."""

    name: str
    shift: int | None = 0
    zero: list[int] = field(default_factory=list)
    one: list[int] = field(default_factory=list)
    zero_why: str = ""
    one_why: str = ""
    outside: list[int] = field(default_factory=list)


def settle(
    values: Mapping[str, Sequence[int]], problems: Callable[[], Sequence[int | None]], inputs: Sequence[str] | None,
    corrects: Sequence[str] | None, shown: ShownExamples, norm: Callable[[str], str],
) -> dict[str, Column]:
    """The numbering of each of ``run``, ``order``, ``trial`` present in ``values`` (columns of
    the file's rows, aligned with ``problems()`` and, when the file has them, its inputs and
    correct outputs). ``shown`` holds the trial files' examples (empty without ``--trials``).

    The values are asked first (a set of each column: the common file costs no loop in Python);
    only when they disagree, and the rows carry inputs, are the trial files asked row by row."""
    out: dict[str, Column] = {}
    told: dict[str, dict[int, tuple[bool, bool]]] | None = None
    for name, top in TOPS.items():
        column = values.get(name)
        if column is None:
            continue
        col = out[name] = Column(name)
        present = set(column)
        if 0 in present and top in present and name != "run" and shown and inputs is not None and corrects is not None:
            if told is None:
                told = _from_examples(values, problems(), inputs, corrects, shown, norm)
            _by_rows(col, column, top, told.get(name, {}))
        elif 0 in present and top in present:
            col.zero = [k for k, v in enumerate(column) if v == 0]
            col.one = [k for k, v in enumerate(column) if v == top]
            col.zero_why, col.one_why = f"{name} 0", f"{name} {top}"
        else:  # they agree: the first row that says so is all a note needs
            col.zero = [column.index(0)] if 0 in present else []
            col.one = [column.index(top)] if top in present else []
        if col.zero and col.one:
            col.shift = None
            continue
        col.shift = 1 if col.zero else 0
        low, high = 1 - col.shift, top - col.shift
        if min(present) < low or max(present) > high:
            col.outside = [k for k, v in enumerate(column) if not low <= v <= high]
    return out


def _by_rows(col: Column, column: Sequence[int], top: int, told: Mapping[int, tuple[bool, bool]]) -> None:
    """Each row's word on its column's numbering: its input's where the trial files can judge
    it (``told``), its value's elsewhere."""
    name = col.name
    for k, v in enumerate(column):
        fits = told.get(k)
        why = f"{name} {v}"
        if fits is None:
            fits = (1 <= v <= top, 0 <= v <= top - 1)
        elif fits[0] != fits[1]:
            why = f"{name} {v}, whose input is its test example only if {name}s are numbered from {1 if fits[0] else 0}"
        if fits == (True, False):
            col.one.append(k)
            col.one_why = col.one_why or why
        elif fits == (False, True):
            col.zero.append(k)
            col.zero_why = col.zero_why or why


def _from_examples(
    values: Mapping[str, Sequence[int]], problems: Sequence[int | None], inputs: Sequence[str] | None,
    corrects: Sequence[str] | None, shown: ShownExamples, norm: Callable[[str], str],
) -> dict[str, dict[int, tuple[bool, bool]]]:
    """Per row that can be matched against the trial files: for ``order`` and ``trial``, whether
    its input and correct are its test example as written (first) and when numbered from 0
    (second). A row that matches under neither says nothing of the numbering (both False): its
    value does not speak for it either, since its input shows it is wrong whatever the numbering."""
    orders, trials = values.get("order"), values.get("trial")
    if not shown or inputs is None or corrects is None or orders is None or trials is None:
        return {}
    by_order: dict[int, tuple[bool, bool]] = {}
    by_trial: dict[int, tuple[bool, bool]] = {}
    memo: dict[tuple[int, int, int, str, str], tuple[bool, bool, bool, bool]] = {}
    for k, p in enumerate(problems):
        if p is None or ((p, orders[k]) not in shown and (p, orders[k] + 1) not in shown):
            continue
        key = (p, orders[k], trials[k], inputs[k], corrects[k])
        got = memo.get(key)
        if got is None:
            pair = (norm(inputs[k]), norm(corrects[k]))
            fit = [[_is_test(shown.get((p, orders[k] + do)), trials[k] + dt, pair) for dt in (0, 1)] for do in (0, 1)]
            got = memo[key] = (fit[0][0], fit[0][1], fit[1][0], fit[1][1])
        a, b, c, d = got  # (order as written, trial as written), (as written, from 0), (from 0, as written), (from 0, from 0)
        by_order[k] = (a or b, c or d)
        by_trial[k] = (a or c, b or d)
    return {"order": by_order, "trial": by_trial}


def _is_test(examples: Sequence[tuple[str, str]] | None, trial: int, pair: tuple[str, str]) -> bool:
    return examples is not None and 1 <= trial <= len(examples) and examples[trial - 1] == pair
