"""``sylla new``'s generator: for every type and many option combinations the output lints
clean for its type, is already in ``sylla fmt`` layout, is deterministic, and its *structure*
(the type inferred with the declaration ignored) is the requested type."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.author import AuthorError, Spec, Variation, build, parse_vary
from sylla.grammar.syllabus.explain import explain
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.syllabus_type import infer_type
from sylla.linter import Config, format_text, lint

TASKS = ["Pong", "Breakout", "Freeway", "MsPacman", "Space_Invaders", "minigrid-doorkey", "Café"]
PARAMS = ["bot/paddle/width", "speed", "agent_pos", "ball/size"]
VALUES = st.one_of(
    st.integers(-5, 50), st.floats(0.01, 5, allow_nan=False).map(lambda f: round(f, 3)),
    st.sampled_from(["easy", "hard", "x y"]), st.booleans(),
)
#: what the structure alone says each requested type is (A and B share a shape)
INFERRED = {"CL": "CL", "STE": "STE", "ANT-A": "ANT-A/B", "ANT-B": "ANT-A/B", "ANT-C": "ANT-C"}


def _values() -> st.SearchStrategy[tuple]:
    return st.lists(VALUES, min_size=2, max_size=4, unique_by=lambda v: json.dumps(v)).map(tuple)


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    kind = draw(st.sampled_from(["CL", "ANT-A", "ANT-B", "ANT-C", "STE"]))
    n = 1 if kind in ("CL", "STE") else draw(st.integers(2, 4))
    tasks = tuple(draw(st.lists(st.sampled_from(TASKS), min_size=n, max_size=n, unique=True)))
    vary: tuple[Variation, ...] = ()
    if kind == "CL":
        vary = (Variation(tasks[0], draw(st.sampled_from(PARAMS)), draw(_values())),)
    elif kind == "ANT-C":
        varied = draw(st.lists(st.sampled_from(tasks), min_size=1, max_size=n, unique=True))
        vary = tuple(Variation(t, draw(st.sampled_from(PARAMS)), draw(_values())) for t in varied)
    return Spec(
        type=kind, tasks=tasks, vary=vary,
        episodes=draw(st.integers(1, 20000)), test_episodes=draw(st.integers(1, 500)),
        pretest=kind != "STE" and draw(st.booleans()),
        module=draw(st.sampled_from([None, "l2arcadekit.l2agames", "minigrid"])),
        style=draw(st.sampled_from(["info", "enable_updates"])),
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_generated_syllabus_is_lint_clean_fmt_stable_and_of_its_type(spec: Spec) -> None:
    text = build(spec)
    assert build(spec) == text  # deterministic
    assert format_text(text) == text  # already in `sylla fmt` layout
    findings = lint(text, "new.json", Config(profile="pretest" if spec.pretest else "l2m")).findings
    assert [(f.code, f.message) for f in findings] == []
    model = parse(text, "new.json").model
    assert model is not None
    assert explain(model, 1, 0)["type"] == spec.type
    assert infer_type(model).type == INFERRED[spec.type]
    data = json.loads(text)
    assert data["syllabus_type"] == spec.type and {"name", "author", "contains", "default_params"} <= set(data)


def test_pretest_needs_the_pretest_profile_and_says_so() -> None:
    # Without the profile a 0.test phase is a finding; the option's help tells the author.
    text = build(Spec("ANT-B", ("Pong", "Breakout"), pretest=True))
    assert {f.code for f in lint(text, "x.json", Config()).findings} & {"P302", "P304"}


def test_ant_b_covers_every_transfer_cell_with_three_tasks() -> None:
    text = build(Spec("ANT-B", ("Pong", "Breakout", "Freeway")))
    assert not [f for f in lint(text, "x.json").findings if f.code == "T410"]
    # every test phase tests every task, so each (i, j) has a test of j between i's and j's training
    phases = json.loads(text)["instructions"]
    tests = [i for i, ins in enumerate(phases) if ins.get("$phase", "").endswith(".test")]
    assert len(tests) == 3


def test_ant_c_tests_other_tasks_than_it_trains() -> None:
    data = json.loads(build(Spec("ANT-C", ("Pong", "Breakout"), vary=(Variation("Pong", "w", (1, 2)),))))
    phase, by_phase = None, {}
    for ins in data["instructions"]:
        if "$phase" in ins:
            phase = ins["$phase"]
        elif "$repeat" in ins:
            by_phase.setdefault(phase, set()).add(ins["$repeat"]["$episode"])
    assert by_phase == {"1.train": {"Pong"}, "1.test": {"Breakout"}, "2.train": {"Breakout"}, "2.test": {"Pong"}}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (Spec("CL", ("Pong", "Breakout"), vary=(Variation("Pong", "w", (1, 2)),)), "exactly one --task"),
        (Spec("CL", ("Pong",)), "needs exactly one --vary"),
        (Spec("ANT-B", ("Pong",)), "at least two --task"),
        (Spec("ANT-A", ("Pong", "Breakout"), vary=(Variation("Pong", "w", (1, 2)),)), "may not vary"),
        (Spec("ANT-C", ("Pong", "Breakout")), "needs --vary"),
        (Spec("ANT-C", ("Pong", "Breakout"), vary=(Variation("Freeway", "w", (1, 2)),)), "not one of the --task"),
        (Spec("CL", ("Pong",), vary=(Variation("Pong", "w", (1,)),)), "at least two values"),
        (Spec("CL", ("Pong",), vary=(Variation("Pong", "w", (1, 1)),)), "listed twice"),
        (Spec("ANT-A", ("Pong", "Pong")), "given twice"),
        (Spec("STE", ("Pong",), episodes=0), "at least 1"),
        (Spec("STE", ("Pong",), pretest=True), "--pretest"),
    ],
)
def test_bad_combinations_are_refused_with_a_reason(spec: Spec, message: str) -> None:
    with pytest.raises(AuthorError, match=message):
        build(spec)


def test_parse_vary() -> None:
    assert parse_vary("Pong:bot/paddle/width=0.15,0.2,wide") == Variation("Pong", "bot/paddle/width", (0.15, 0.2, "wide"))
    with pytest.raises(AuthorError, match="TASK:PARAM"):
        parse_vary("Pong=1,2")
