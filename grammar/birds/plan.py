"""What a configMeta.xml trial template turns into: trial counts, training time, test-set counts.

The formulas are the reference text's ("Trial Generation Parameters Configuration",
/work/shared/reference/science-birds-trial-config.md, item 5, and the game's generator):

- training time limit of a generated trial = per-level time limit x amount, summed over the
  training sets (``amount`` ``lo-hi`` draws from [lo, hi), so the limit is a range);
- total_n_testsets = ceil(training_time_limit / checkpoint_time_limit)
  + ceil(training_interaction_limit / checkpoint_interaction_limit);
- per test ``game_level_set``: n_testsets = ceil(total_n_testsets x set_appearance_percentage / 100).

A limit of 0 or less is off. A term whose training or checkpoint limit is off contributes 0,
and the plan says so in ``notes`` rather than dividing by zero or inventing a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .model import LevelSet, TrialTemplate


def ceil_div(a: int, b: int) -> int:
    """ceil(a / b) for positive ints, exactly (no float rounding)."""
    return -(-a // b)


def total_n_testsets(train_time: int | None, ckpt_time: int | None, train_inter: int | None, ckpt_inter: int | None) -> tuple[int, list[str]]:
    """The reference formula, with a disabled limit contributing 0 (and a note saying so)."""
    notes: list[str] = []
    total = 0
    for what, train, ckpt in (("time", train_time, ckpt_time), ("interaction", train_inter, ckpt_inter)):
        if train is None or train <= 0:
            notes.append(f"the training {what} limit is off, so the {what} term contributes 0 test sets")
        elif ckpt is None or ckpt <= 0:
            notes.append(f"the checkpoint {what} limit is off, so the {what} term contributes 0 test sets")
        else:
            total += ceil_div(train, ckpt)
    return total, notes


def n_testsets(total: int, percentage: int) -> int:
    """ceil(total x percentage / 100), exactly."""
    return math.ceil(Fraction(total * percentage, 100))


@dataclass(frozen=True)
class SetPlan:
    level_set: LevelSet
    amount: tuple[int, int] | None
    #: per-level time x amount (training sets), a (min, max) range
    time_limit: tuple[int, int] | None = None
    #: test sets: how many times the set is generated, (min, max) over the training-time range
    n_testsets: tuple[int, int] | None = None


@dataclass(frozen=True)
class TrialPlan:
    template: TrialTemplate
    generated: int
    repeats: int | None
    checkpoint_time: int | None
    checkpoint_interaction: int | None
    per_level_time: int | None
    interaction: int | None
    attempt_per_level: int | None
    allow_level_selection: bool | None
    training_sets: tuple[SetPlan, ...]
    training_time: tuple[int, int] | None
    total_n_testsets: tuple[int, int]
    test_sets: tuple[SetPlan, ...]
    notes: tuple[str, ...] = field(default=())


def _bool(text: str | None) -> bool | None:
    return {"true": True, "false": False}.get(text) if text is not None else None


def plan(template: TrialTemplate) -> TrialPlan:
    training = template.training
    limits = training.limits if training is not None else None
    per_level = limits.int("time") if limits else None
    interaction = limits.int("interaction") if limits else None
    attempts = limits.int("attempt_per_level") if limits else None
    select = limits.get("allow_level_selection") if limits else None
    ckpt_time = template.checkpoint.int("time")
    ckpt_inter = template.checkpoint.int("interaction")
    notes: list[str] = []
    sets: list[SetPlan] = []
    lo_time = hi_time = 0
    known_time = per_level is not None
    for s in training.sets if training is not None else ():
        amount = s.amount_range
        if amount is None or per_level is None:
            known_time = False
            sets.append(SetPlan(s, amount))
            continue
        t = (per_level * amount[0], per_level * amount[1])
        lo_time, hi_time = lo_time + t[0], hi_time + t[1]
        sets.append(SetPlan(s, amount, t))
    training_time = (lo_time, hi_time) if known_time and sets else None
    if per_level is not None and per_level <= 0:
        training_time = None
    lo_total, lo_notes = total_n_testsets(training_time[0] if training_time else None, ckpt_time, interaction, ckpt_inter)
    hi_total, _ = total_n_testsets(training_time[1] if training_time else None, ckpt_time, interaction, ckpt_inter)
    notes += lo_notes
    tests: list[SetPlan] = []
    for s in template.test.sets if template.test is not None else ():
        pct = s.set_appearance_percentage.int if s.set_appearance_percentage is not None else None
        n = (n_testsets(lo_total, pct), n_testsets(hi_total, pct)) if pct is not None else None
        tests.append(SetPlan(s, s.amount_range, None, n))
    repeats = template.repeats.int if template.repeats is not None else None
    return TrialPlan(
        template, template.generated, repeats, ckpt_time, ckpt_inter, per_level, interaction, attempts,
        _bool(select.value.text) if select is not None else None, tuple(sets), training_time, (lo_total, hi_total),
        tuple(tests), tuple(notes),
    )
