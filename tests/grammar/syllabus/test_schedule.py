"""The schedule: episode ranges, learning flags and worker splitting."""

from __future__ import annotations

import sylla
from sylla.grammar.syllabus.schedule import schedules, share

from .helpers import parse_fixture


def test_learning_comes_from_enable_updates_then_info_never_from_the_kind() -> None:
    model = sylla.parse(
        """[
        {"$phase": "1.train"}, {"$episode": "A"},
        {"$phase": "1.test"}, {"$episode": "A"},
        {"$info": {"disable_updates": true}}, {"$episode": "A"},
        {"$phase": "2.train", "enable_updates": true}, {"$episode": "A"},
        {"$phase": "2.test"}, {"$episode": "A"},
        {"$info": {}}, {"$episode": "A"},
        {"$info": {"disable_updates": false}}, {"$episode": "A"}
        ]"""
    ).model
    assert model is not None
    plan = sylla.schedule(model)
    assert [b.learning for b in plan.blocks] == [None, None, False, True, False, None, True]
    assert [(b.start, b.end) for b in plan.blocks] == [(i, i + 1) for i in range(7)]


def test_phases_unphased_and_ranges() -> None:
    model = parse_fixture("no-phases.json").model
    assert model is not None
    plan = sylla.schedule(model)
    assert plan.phases == ()
    assert [(b.start, b.end) for b in plan.unphased] == [(0, 1000), (1000, 2000), (2000, 2001)]
    assert plan.episodes == 2001
    assert plan.block_at(1500).ordinal == 1  # type: ignore[union-attr]
    assert plan.block_at(2001) is None


def test_pretest_phase_zero() -> None:
    model = parse_fixture("pretest.json").model
    assert model is not None
    plan = sylla.schedule(model)
    assert [(r.phase.label, r.phase.number, r.start, r.end) for r in plan.phases] == [
        ("0.test", 0, 0, 20), ("1.train", 1, 20, 120), ("1.test", 1, 120, 140),
    ]


def test_worker_split_gives_remainders_to_the_first_workers() -> None:
    assert [share(10, 3, w) for w in range(3)] == [4, 3, 3]
    assert [share(2, 3, w) for w in range(3)] == [1, 1, 0]
    model = sylla.parse('[{"$phase": "1.train"}, {"$repeat": {"$episode": "A"}, "count": 10}, {"$repeat": {"$episode": "B"}, "count": 2}]').model
    assert model is not None
    lanes = schedules(model, 3)
    assert [[(b.start, b.end) for b in lane.blocks] for lane in lanes] == [
        [(0, 4), (4, 5)], [(0, 3), (3, 4)], [(0, 3), (3, 3)],
    ]
    assert sum(lane.episodes for lane in lanes) == 12
