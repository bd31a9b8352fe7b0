"""What a configMeta.xml trial template turns into: trial counts, training time, test-set counts.

The formulas are the reference text's ("Trial Generation Parameters Configuration",
/work/shared/reference/science-birds-trial-config.md, item 5, and the game's generator):

- training time limit of a generated trial = per-level time limit x amount, summed over the
  training sets (``amount`` ``lo-hi`` draws from [lo, hi), so the limit is a range);
- total_n_testsets = ceil(training_time_limit / checkpoint_time_limit)
  + ceil(training_interaction_limit / checkpoint_interaction_limit);
- per test ``game_level_set``: n_testsets = ceil(total_n_testsets x set_appearance_percentage / 100);
- the test sets generated in all: the sum of the n_testsets, the same formula as each set's.

A limit of 0 or less, or one that is not written, is off. A term whose training or checkpoint
limit is off contributes 0, and the plan says so in ``notes`` rather than dividing by zero or
inventing a number.

A value that is written but cannot be read (a word, a number out of the game's range, an
``amount`` range that draws nothing) is unknown, never off and never 0: everything computed
from it is unknown too (None), ``unknown`` names the value and why, and ``notes`` says what it
leaves open. Off and unknown are told apart by the limit's own text, so "the limit is off" is
only ever said of a limit that is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .model import LevelSet, Limits, TrialTemplate, shown
from .numbers import game_range

Range = tuple[int, int]


def ceil_div(a: int, b: int) -> int:
    """ceil(a / b) for positive ints, exactly (no float rounding)."""
    return -(-a // b)


def total_n_testsets(train_time: int | None, ckpt_time: int | None, train_inter: int | None, ckpt_inter: int | None) -> tuple[int, list[str]]:
    """The reference formula on known limits, with a disabled (None or <= 0) limit
    contributing 0 (and a note saying so)."""
    notes: list[str] = []
    total = 0
    for what, train, ckpt in (("time", train_time, ckpt_time), ("interaction", train_inter, ckpt_inter)):
        sets, note = term(what, train, ckpt, set())
        notes += [note] if note else []
        total += sets or 0
    return total, notes


def term(what: str, train: int | None, ckpt: int | None, unknown: set[str]) -> tuple[int | None, str | None]:
    """One term of total_n_testsets: ceil(train / ckpt), 0 when either limit is off, None when
    it depends on a limit in ``unknown`` (``"training time"``, ``"checkpoint interaction"``...);
    and the note that says why it is not a quotient."""
    train_off = f"training {what}" not in unknown and (train is None or train <= 0)
    ckpt_off = f"checkpoint {what}" not in unknown and (ckpt is None or ckpt <= 0)
    if train_off:
        return 0, f"the training {what} limit is off, so the {what} term contributes 0 test sets"
    if ckpt_off:
        return 0, f"the checkpoint {what} limit is off, so the {what} term contributes 0 test sets"
    if train is None or ckpt is None:
        return None, None
    return ceil_div(train, ckpt), None


def n_testsets(total: int, percentage: int) -> int:
    """ceil(total x percentage / 100), exactly."""
    return math.ceil(Fraction(total * percentage, 100))


def total_range(values: list[Range | None]) -> Range | None:
    """The sum of ranges: None (unknown) when one of them is."""
    if any(v is None for v in values):
        return None
    known = [v for v in values if v is not None]
    return (sum(v[0] for v in known), sum(v[1] for v in known))


@dataclass(frozen=True)
class SetPlan:
    level_set: LevelSet
    amount: Range | None
    #: per-level time x amount (training sets), a (min, max) range
    time_limit: Range | None = None
    #: test sets: how many times the set is generated, (min, max) over the training-time range
    n_testsets: Range | None = None


@dataclass(frozen=True)
class TrialPlan:
    """A template's numbers. A raw limit (``checkpoint_time`` ...) is None when it is not
    written or cannot be read; ``unknown`` holds the ones that cannot be read, by name
    (``"checkpoint time"``, ``"checkpoint interaction"``, ``"training per-level time"``,
    ``"training interaction"``, ``"attempt_per_level"``, ``"count"``, ``"repeats"``,
    ``"notify_novelty"``, and ``"training time"`` for the training time limit, unknown through
    its per-level time or an amount), each with why. A computed number is None when it depends
    on one of them."""

    template: TrialTemplate
    generated: int | None
    repeats: int | None
    checkpoint_time: int | None
    checkpoint_interaction: int | None
    per_level_time: int | None
    interaction: int | None
    attempt_per_level: int | None
    allow_level_selection: bool | None
    training_sets: tuple[SetPlan, ...]
    #: None when the training time limit is off or unknown ("training time" in ``unknown``)
    training_time: Range | None
    #: None when unknown
    total_n_testsets: Range | None
    test_sets: tuple[SetPlan, ...]
    notes: tuple[str, ...] = field(default=())
    unknown: dict[str, str] = field(default_factory=dict)

    @property
    def executions(self) -> int | None:
        """Trials generated x repeats (a repeat count of 0 or less runs nothing)."""
        if self.generated == 0 or (self.repeats is not None and self.repeats <= 0):
            return 0
        if self.generated is None or self.repeats is None:
            return None
        return self.generated * self.repeats

    @property
    def test_sets_in_all(self) -> Range | None:
        """How many test sets the trial runs: the sum of each set's n_testsets."""
        return total_range([s.n_testsets for s in self.test_sets])

    def state(self, limit: str, value: int | None) -> bool | None:
        """Whether the limit named ``limit`` (a key of ``unknown``) is on: None when unknown."""
        if limit in self.unknown:
            return None
        return value is not None and value > 0

    @property
    def checkpoints(self) -> bool | None:
        """Whether checkpoints fire at all (either limit on); None when that is unknown."""
        return any3(self.state("checkpoint time", self.checkpoint_time), self.state("checkpoint interaction", self.checkpoint_interaction))


def any3(*values: bool | None) -> bool | None:
    """Three-valued or: True if any is, False if all are known to be False, else None."""
    if any(v is True for v in values):
        return True
    return None if any(v is None for v in values) else False


def _bool(text: str | None) -> bool | None:
    return {"true": True, "false": False}.get(text) if text is not None else None


def _limit(limits: Limits | None, kind: str, name: str, unknown: dict[str, str]) -> int | None:
    """The limit's value (None when not written, or when it cannot be read: then ``unknown``
    gets its name and why)."""
    item = limits.get(kind) if limits is not None else None
    if item is None:
        return None
    value = item.value.int
    if value is None:
        unknown[name] = f"{shown(item.value, kind)} is not a whole number the game reads"
    return value


def plan(template: TrialTemplate) -> TrialPlan:
    unknown: dict[str, str] = {}
    training = template.training
    limits = training.limits if training is not None else None
    per_level = _limit(limits, "time", "training per-level time", unknown)
    interaction = _limit(limits, "interaction", "training interaction", unknown)
    attempts = _limit(limits, "attempt_per_level", "attempt_per_level", unknown)
    select = limits.get("allow_level_selection") if limits else None
    ckpt_time = _limit(template.checkpoint, "time", "checkpoint time", unknown)
    ckpt_inter = _limit(template.checkpoint, "interaction", "checkpoint interaction", unknown)
    sets: list[SetPlan] = []
    for i, s in enumerate(training.sets if training is not None else (), 1):
        amount = s.amount_range
        if amount is None:
            if s.amount is None:
                why = "has no amount"
            elif game_range(s.amount.raw) is not None:
                why = f"{shown(s.amount)} is a reversed range, which the game cannot draw from"
            else:
                why = f"{shown(s.amount)} is not a number of levels the game reads"
            unknown.setdefault("training time", f"training set {i} {why}")
        if amount is None or per_level is None:
            sets.append(SetPlan(s, amount))
            continue
        sets.append(SetPlan(s, amount, (per_level * amount[0], per_level * amount[1])))
    training_time: Range | None = None
    if "training per-level time" in unknown:
        unknown["training time"] = unknown["training per-level time"]
    elif per_level is None or per_level <= 0:
        unknown.pop("training time", None)  # off, whatever the amounts are
    elif "training time" not in unknown and sets:
        training_time = total_range([sp.time_limit for sp in sets])
    known = set(unknown)
    terms = [
        (term("time", training_time[at] if training_time else None, ckpt_time, known), term("interaction", interaction, ckpt_inter, known))
        for at in (0, 1)
    ]
    notes = [note for _, note in terms[0] if note]
    total: Range | None = None
    lo, hi = ([n for n, _ in row] for row in terms)
    if None in lo or None in hi:
        why = "; ".join(unknown[k] for k in ("training time", "training interaction", "checkpoint time", "checkpoint interaction") if k in unknown)
        notes.append(f"total_n_testsets is unknown, and so is each test set's n_testsets: {why}")
    else:
        total = (sum(n for n in lo if n is not None), sum(n for n in hi if n is not None))
    tests: list[SetPlan] = []
    for s in template.test.sets if template.test is not None else ():
        pct = s.set_appearance_percentage.int if s.set_appearance_percentage is not None else None
        n = (n_testsets(total[0], pct), n_testsets(total[1], pct)) if pct is not None and total is not None else None
        tests.append(SetPlan(s, s.amount_range, None, n))
    for name, f in (("count", template.count), ("repeats", template.repeats)):
        if f is None:
            unknown[name] = f"<{name}> is missing"
        elif f.int is None:
            unknown[name] = f"{shown(f)} is not a whole number the game reads"
    if template.generated is None and template.notify_novelty is not None and template.notify_novelty.text not in ("true", "false", "both"):
        unknown["notify_novelty"] = f"{shown(template.notify_novelty)} is none of true, false, both"
    repeats = template.repeats.int if template.repeats is not None else None
    return TrialPlan(
        template, template.generated, repeats, ckpt_time, ckpt_inter, per_level, interaction, attempts,
        _bool(select.value.text) if select is not None else None, tuple(sets), training_time, total,
        tuple(tests), tuple(notes), unknown,
    )
