"""The typed model of one trial file. Every value carries its span (code-point offsets into
the decoded text), so findings land on the exact element."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sylla.grammar.core import Span

# The wave-3 request's protocol, defined once (issue 28: it was written out in three modules).
#: runs of each problem ordering (bests.csv, predictions.csv)
RUNS = 5
#: orderings of each problem's examples (cPPP_1.json ... cPPP_5.json)
ORDERINGS = 5
#: examples per ordering, one per trial
TRIALS = 11
#: programs sampled into samples.csv
SAMPLES = 10_000
#: the time budget of one trial
MINUTES_PER_TRIAL = 10


#: integer literals longer than this are not converted: every value of the request has at most two
#: digits, and Python refuses to convert more than 4,300 (``sys.get_int_max_str_digits``)
MAX_DIGITS = 20


@dataclass(frozen=True, slots=True)
class LongInt:
    """An integer literal of more than ``MAX_DIGITS`` digits, kept as its length: it lies outside
    every range of the request, and converting it would cost time or raise."""

    digits: int
    negative: bool = False

    def __str__(self) -> str:
        return f"<{'a negative' if self.negative else 'an'} integer of {self.digits:,} digits>"


@dataclass(frozen=True, slots=True)
class IntList:
    """An ``i`` or ``o`` list: its values (None where an element is not an integer, ``LongInt``
    where it is one too long to read) and spans."""

    values: tuple[int | LongInt | None, ...]
    spans: tuple[Span, ...]
    span: Span

    @property
    def ints(self) -> tuple[int, ...] | None:
        ints = tuple(v for v in self.values if type(v) is int)
        return ints if len(ints) == len(self.values) else None


@dataclass(frozen=True, slots=True)
class Example:
    index: int  # 0-based position in ``data``
    span: Span
    i: IntList | None
    o: IntList | None

    @property
    def pair(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        if self.i is None or self.o is None or self.i.ints is None or self.o.ints is None:
            return None
        return self.i.ints, self.o.ints


@dataclass(frozen=True, slots=True)
class TrialFile:
    id: str | None
    id_span: Span
    program: str | None
    program_span: Span
    data: tuple[Example, ...]
    data_span: Span
    span: Span

    @property
    def problem(self) -> int | None:
        """The problem number of the id (``c007`` -> 7)."""
        m = re.fullmatch(r"c([0-9]{3})", self.id or "")
        return int(m.group(1)) if m else None


NAME_RE = re.compile(r"^c([0-9]{3})_([0-9]+)\.json$")


def name_parts(filename: str) -> tuple[int, int] | None:
    """(problem, ordering) of a file named ``cPPP_K.json``, else None."""
    m = NAME_RE.match(filename)
    return (int(m.group(1)), int(m.group(2))) if m else None


def group_of(problem: int) -> str:
    """The problem group of wave3-problems.md: P1.1-P1.4 are 1-80 (20 each), P2 is 81-100."""
    if 1 <= problem <= 80:
        return f"P1.{(problem - 1) // 20 + 1}"
    return "P2"


def value_max(problem: int | None) -> int:
    """Largest value in a problem's lists: 9 for problems 1-80, 99 for 81-100."""
    return 9 if problem is not None and 1 <= problem <= 80 else 99
