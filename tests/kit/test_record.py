"""kit/record.py behaves as ``@dataclass`` does for what sylla declares: each record here is
checked against the same class declared with the standard ``@dataclass`` (the oracle)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block, PhaseMark, Syllabus
from sylla.grammar.syllabus.parse import parse
from sylla.kit.record import field, field_names, record, replace


@record(frozen=True, slots=True)
class Point:
    x: int
    y: int
    tags: tuple[str, ...] = ()
    note: str | None = field(default=None, compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class PointDC:
    x: int
    y: int
    tags: tuple[str, ...] = ()
    note: str | None = dataclasses.field(default=None, compare=False, repr=False)


@record()
class Bag:
    name: str
    items: list[int] = field(default_factory=list)


@dataclasses.dataclass
class BagDC:
    name: str
    items: list[int] = dataclasses.field(default_factory=list)


def test_equality_hash_and_repr_are_the_dataclasses():
    a, b = Point(1, 2, ("t",), note="a"), Point(1, 2, ("t",), note="b")
    assert a == b and hash(a) == hash(b) == hash(PointDC(1, 2, ("t",)))  # the same hash values: sets keep their order
    assert a != Point(1, 3) and Point(1, 2) != PointDC(1, 2)
    assert repr(a) == repr(PointDC(1, 2, ("t",), note="a")).replace("PointDC", "Point")
    assert repr(Bag("x")) == repr(BagDC("x")).replace("BagDC", "Bag")


def test_frozen_slotted_records_refuse_assignment_and_have_no_dict():
    p = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]  # the assignment under test
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.x  # type: ignore[misc]  # the deletion under test
    assert not hasattr(p, "__dict__") and Point.__slots__ == ("x", "y", "tags", "note")


def test_mutable_records_are_unhashable_and_get_a_fresh_default_each():
    a, b = Bag("a"), Bag("b")
    a.items.append(1)
    assert b.items == [] and a == Bag("a", [1])
    with pytest.raises(TypeError):
        hash(a)


def test_replace_fields_match_pickle_and_copy():
    p = Point(1, 2, note="n")
    assert replace(p, y=5) == Point(1, 5) and replace(p, y=5).note == "n"
    with pytest.raises(TypeError):
        replace(p, z=1)
    assert field_names(Point) == tuple(f.name for f in dataclasses.fields(PointDC))
    assert Point.__match_args__ == PointDC.__match_args__
    match p:
        case Point(x, y):
            assert (x, y) == (1, 2)
    for twin in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p), copy.copy(p)):
        assert twin == p and twin.note == "n"


def test_missing_argument_and_defaults_order_are_errors():
    with pytest.raises(TypeError):
        Point(1)  # type: ignore[call-arg]  # the missing argument under test
    with pytest.raises(TypeError, match="follows default"):

        @record()
        class Wrong:
            a: int = 0
            b: int


def test_two_parses_of_one_text_are_equal_models():
    """The source map and line index are views of the text, not part of the model's value."""
    text = '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 2}]}'
    one, two = parse(text).model, parse(text).model
    assert isinstance(one, Syllabus) and one == two and one.source_map is not two.source_map
    assert isinstance(one.instructions[0], PhaseMark) and isinstance(one.instructions[1], Block)
    assert hash(one.instructions[0]) == hash(two.instructions[0])
    assert "source" not in repr(one.instructions[1]) and "source_map" not in repr(one)
    assert one.instructions[1].span == Span(one.instructions[1].span.start, one.instructions[1].span.end)


def test_init_is_compiled_on_first_construction_and_takes_keywords():
    @record(frozen=True, slots=True)
    class Late:
        a: int
        b: str = "b"

    first = Late.__init__
    assert Late(b="x", a=1) == Late(1, "x") and Late(2).b == "b"
    assert Late.__init__ is not first and Late.__init__.__code__.co_varnames[:3] == ("self", "a", "b")
    with pytest.raises(TypeError):
        Late(1, c=2)  # type: ignore[call-arg]  # the unknown keyword under test
