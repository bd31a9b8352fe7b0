"""The typed, immutable model of the two Science Birds trial config files.

``configMeta.xml`` (root ``<config_generation>``) is what an author writes: trial templates
with checkpoints, training limits and level sets. ``config.xml`` (root ``<evaluation>``) is what
the game generates from it: one ``<trial>`` per generated trial with its level paths.

The model is lenient, like the syllabus model: it is built from whatever elements are there
(the XSD reports what is missing or misplaced), and every value keeps its raw text and span.
``Field.int``/``Field.number`` are None when the text is not a number, never a silent 0; an
integer the game cannot read (outside int.Parse's 32 bits, ``numbers``) is not one either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Literal, Union, overload

from sylla.grammar.core import Span

from .kinds import ROOTS
from .numbers import clip, game_int, game_range, out_of_range
from .xmltree import XmlAttr, XmlElement


@dataclass(frozen=True, slots=True)
class Field:
    """One value: an attribute's value or an element's text, with where it is."""

    name: str
    raw: str
    span: Span
    #: the whole attribute (``name="value"``) or the whole element
    node_span: Span
    is_attribute: bool = True

    @property
    def int(self) -> int | None:
        return game_int(self.raw)

    @property
    def out_of_range(self) -> bool:
        """Written as a whole number (or ``lo-hi``), but outside what the game reads."""
        return out_of_range(self.raw)

    @property
    def number(self) -> float | None:
        try:
            value = float(self.raw)
        except ValueError:
            return None
        return value if math.isfinite(value) else None

    @property
    def text(self) -> str:
        return self.raw.strip()


def attr_field(element: XmlElement | None, name: str) -> Field | None:
    if element is None:
        return None
    a: XmlAttr | None = element.attr(name)
    return None if a is None else Field(name, a.value, a.value_span, a.span)


@overload
def text_field(element: XmlElement) -> Field: ...
@overload
def text_field(element: XmlElement | None) -> Field | None: ...
def text_field(element: XmlElement | None) -> Field | None:
    if element is None:
        return None
    return Field(element.tag, element.text, element.value_span, element.span, is_attribute=False)


# ---- configMeta.xml --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Measurement:
    """``<novelty_detection_measurement step=".." measure_in_training=".." measure_in_testing="..">``."""

    element: XmlElement
    step: Field | None
    measure_in_training: Field | None
    measure_in_testing: Field | None


@dataclass(frozen=True, slots=True)
class Limit:
    """``<limit type="time">180</limit>``: ``kind`` the type attribute, ``value`` the text."""

    element: XmlElement
    kind: Field | None
    value: Field


@dataclass(frozen=True, slots=True)
class Limits:
    element: XmlElement | None
    items: tuple[Limit, ...]

    def get(self, kind: str) -> Limit | None:
        """The limit of this type the game uses: the last one written, as it reads them in order."""
        found = None
        for item in self.items:
            if item.kind is not None and item.kind.text == kind:
                found = item
        return found

    def int(self, kind: str) -> int | None:
        limit = self.get(kind)
        return None if limit is None else limit.value.int


@dataclass(frozen=True, slots=True)
class LevelSet:
    """A ``<game_level_set>`` of a trial template (training or test)."""

    element: XmlElement
    novelty_level: Field | None
    novelty_type: Field | None
    amount: Field | None
    novelty_absence_portion: Field | None
    no_diff_portion: Field | None
    set_appearance_percentage: Field | None
    time: Field | None
    interaction: Field | None
    attempt_per_level: Field | None
    allow_level_selection: Field | None

    @property
    def amount_range(self) -> tuple[int, int] | None:
        """The fewest and most levels the game can draw: ``n`` is (n, n); ``lo-hi`` is drawn
        from [lo, hi), so (lo, hi - 1), and ``n-n`` always gives n (B818). None when the text is
        neither, or the range is reversed (the game's draw fails)."""
        if self.amount is None:
            return None
        if (n := self.amount.int) is not None:
            return (n, n)
        pair = game_range(self.amount.raw)
        if pair is None:
            return None
        lo, hi = pair
        return (lo, max(lo, hi - 1)) if lo <= hi else None


@dataclass(frozen=True, slots=True)
class Training:
    element: XmlElement
    limits: Limits
    sets: tuple[LevelSet, ...]


@dataclass(frozen=True, slots=True)
class Test:
    element: XmlElement
    ordered: Field | None
    sets: tuple[LevelSet, ...]
    #: whether the element has a ``<game_level_sets>`` child at all
    has_sets_element: bool


@dataclass(frozen=True, slots=True)
class TrialTemplate:
    """A ``<trial>`` of configMeta.xml: the game generates ``count`` trials from it (twice as
    many for ``notify_novelty="both"``) and runs each ``repeats`` times."""

    index: int
    element: XmlElement
    notify_novelty: Field | None
    count: Field | None
    repeats: Field | None
    checkpoint: Limits
    training: Training | None
    test: Test | None

    @property
    def generated(self) -> int | None:
        """How many trials the game generates from the template; None when ``count`` is missing
        or not a number the game reads, or ``notify_novelty`` is none of its three words (then
        how many is unknown, and no number is made up for it)."""
        count = self.count.int if self.count is not None else None
        notify = self.notify_novelty.text if self.notify_novelty is not None else "false"
        if count is not None and count <= 0:
            return 0
        if count is None or notify not in ("true", "false", "both"):
            return None
        return count * (2 if notify == "both" else 1)


@dataclass(frozen=True, slots=True)
class MetaConfig:
    kind: Literal["meta"]
    text: str
    path: str | None
    root: XmlElement
    repeats: Field | None
    measurement: Measurement | None
    trials: tuple[TrialTemplate, ...]


# ---- config.xml ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GeneratedLevel:
    element: XmlElement
    level_path: Field | None


@dataclass(frozen=True, slots=True)
class GeneratedSet:
    element: XmlElement
    mode: Field | None
    time_limit: Field | None
    total_interaction_limit: Field | None
    attempt_limit_per_level: Field | None
    allow_level_selection: Field | None
    levels: tuple[GeneratedLevel, ...]


@dataclass(frozen=True, slots=True)
class GeneratedTrial:
    index: int
    element: XmlElement
    id: Field | None
    number_of_executions: Field | None
    checkpoint_time_limit: Field | None
    checkpoint_interaction_limit: Field | None
    notify_novelty: Field | None
    sets: tuple[GeneratedSet, ...]

    @property
    def training_sets(self) -> tuple[GeneratedSet, ...]:
        return tuple(s for s in self.sets if s.mode is not None and s.mode.text == "training")

    @property
    def test_sets(self) -> tuple[GeneratedSet, ...]:
        return tuple(s for s in self.sets if s.mode is not None and s.mode.text == "test")


@dataclass(frozen=True, slots=True)
class GeneratedConfig:
    kind: Literal["generated"]
    text: str
    path: str | None
    root: XmlElement
    measurement: Measurement | None
    trials: tuple[GeneratedTrial, ...]


BirdsConfig = Union[MetaConfig, GeneratedConfig]


# ---- building --------------------------------------------------------------------------------


def build(root: XmlElement, text: str, path: str | None) -> BirdsConfig | None:
    """The model for a ``<config_generation>`` or ``<evaluation>`` root, else None."""
    kind = ROOTS.get(root.tag)
    if kind == "meta":
        return _meta(root, text, path)
    if kind == "generated":
        return _generated(root, text, path)
    return None


def _measurement(root: XmlElement) -> Measurement | None:
    el = root.child("novelty_detection_measurement")
    if el is None:
        return None
    return Measurement(el, attr_field(el, "step"), attr_field(el, "measure_in_training"), attr_field(el, "measure_in_testing"))


def _limits(element: XmlElement | None) -> Limits:
    if element is None:
        return Limits(None, ())
    items = tuple(Limit(el, attr_field(el, "type"), text_field(el)) for el in element.all("limit"))
    return Limits(element, items)


def _level_set(el: XmlElement) -> LevelSet:
    names = (
        "novelty_level", "novelty_type", "amount", "novelty_absence_portion", "no_diff_portion",
        "set_appearance_percentage", "time", "interaction", "attempt_per_level", "allow_level_selection",
    )
    return LevelSet(el, *(attr_field(el, n) for n in names))


def _sets(parent: XmlElement | None) -> tuple[LevelSet, ...]:
    sets = parent.child("game_level_sets") if parent is not None else None
    return tuple(_level_set(el) for el in sets.all("game_level_set")) if sets is not None else ()


def _meta(root: XmlElement, text: str, path: str | None) -> MetaConfig:
    trials_el = root.child("trials")
    templates = []
    for i, el in enumerate(trials_el.all("trial") if trials_el is not None else ()):
        training_el = el.child("training")
        training = None
        if training_el is not None:
            training = Training(training_el, _limits(training_el.child("limits")), _sets(training_el))
        test_el = el.child("test")
        test = None
        if test_el is not None:
            test = Test(test_el, attr_field(test_el, "ordered"), _sets(test_el), test_el.child("game_level_sets") is not None)
        templates.append(
            TrialTemplate(
                i, el, attr_field(el, "notify_novelty"), text_field(el.child("count")), text_field(el.child("repeats")),
                _limits(el.child("checkpoint")), training, test,
            )
        )
    return MetaConfig("meta", text, path, root, attr_field(root, "repeats"), _measurement(root), tuple(templates))


def _generated(root: XmlElement, text: str, path: str | None) -> GeneratedConfig:
    trials_el = root.child("trials")
    trials = []
    for i, el in enumerate(trials_el.all("trial") if trials_el is not None else ()):
        sets = tuple(
            GeneratedSet(
                s, attr_field(s, "mode"), attr_field(s, "time_limit"), attr_field(s, "total_interaction_limit"),
                attr_field(s, "attempt_limit_per_level"), attr_field(s, "allow_level_selection"),
                tuple(GeneratedLevel(lv, attr_field(lv, "level_path")) for lv in s.all("game_levels")),
            )
            for s in el.all("game_level_set")
        )
        trials.append(
            GeneratedTrial(
                i, el, attr_field(el, "id"), attr_field(el, "number_of_executions"), attr_field(el, "checkpoint_time_limit"),
                attr_field(el, "checkpoint_interaction_limit"), attr_field(el, "notify_novelty"), sets,
            )
        )
    return GeneratedConfig("generated", text, path, root, _measurement(root), tuple(trials))


# ---- the numbers ----------------------------------------------------------------------------

#: the limit types whose value is a number (``allow_level_selection`` is true/false)
NUMERIC_LIMITS = ("time", "interaction", "attempt_per_level")


def shown(f: Field, limit: str | None = None) -> str:
    """The value as it is written, for a message (long values clipped): ``name="value"``,
    ``<count>value</count>``, ``<limit type="time">value</limit>``."""
    if f.is_attribute:
        return f'{f.name}="{clip(f.raw)}"'
    tag = f'{f.name} type="{limit}"' if limit is not None else f.name
    return f"<{tag}>{clip(f.raw)}</{f.name}>"


def numeric_fields(model: BirdsConfig) -> Iterator[tuple[Field, str]]:
    """Every value the game reads as a whole number (``amount`` may be ``lo-hi``), with how it
    is written (``shown``), in no particular order: what ``parse`` checks against the range
    int.Parse reads."""
    m = model.measurement
    if m is not None and m.step is not None:
        yield m.step, shown(m.step)
    if isinstance(model, MetaConfig):
        if model.repeats is not None:
            yield model.repeats, shown(model.repeats)
        for t in model.trials:
            yield from ((f, shown(f)) for f in (t.count, t.repeats) if f is not None)
            for limits in (t.checkpoint, t.training.limits if t.training else None):
                for item in limits.items if limits is not None else ():
                    if item.kind is not None and item.kind.text in NUMERIC_LIMITS:
                        yield item.value, shown(item.value, item.kind.text)
            for s in (t.training.sets if t.training else ()) + (t.test.sets if t.test else ()):
                yield from (
                    (f, shown(f))
                    for f in (s.novelty_level, s.novelty_type, s.amount, s.set_appearance_percentage, s.time, s.interaction, s.attempt_per_level)
                    if f is not None
                )
        return
    for g in model.trials:
        yield from ((f, shown(f)) for f in (g.id, g.number_of_executions, g.checkpoint_time_limit, g.checkpoint_interaction_limit) if f is not None)
        for gs in g.sets:
            yield from ((f, shown(f)) for f in (gs.time_limit, gs.total_interaction_limit, gs.attempt_limit_per_level) if f is not None)
            for level in gs.levels:
                yield from ((f, shown(f)) for f in (attr_field(level.element, "start"), attr_field(level.element, "end")) if f is not None)
