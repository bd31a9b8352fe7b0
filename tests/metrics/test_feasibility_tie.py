"""The test that ties authoring, simulation and metrics together: for many syllabi (random
structures, ``sylla new`` output with test phases removed, and every fixture that the metrics
accept) the metrics predicted feasible from the syllabus alone are exactly the metrics that get
a value from ``sylla metrics`` on a simulated log, and transfer pair by pair. A disagreement is
a bug in the feasibility function, the simulator, or a plugin's declared needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.author import Spec, build
from sylla.grammar.syllabus.parse import parse
from sylla.metrics.errors import MetricsError
from sylla.metrics.feasibility import feasibility
from sylla.metrics.result import compute_metrics
from sylla.metrics.simulate import simulate, write_csv, write_l2logger
from sylla.metrics.syllabus import load_syllabus

ROOT = Path(__file__).resolve().parents[2]
PARAMS = {"maintenance_method": "both", "transfer_method": "both"}
TASKS = ["Pong", "Breakout", "Freeway"]


def predicted(model, ste_tasks: list[str] | None = None) -> tuple[set[str], dict[str, set[str]], set[str]]:
    """(metrics predicted to have values, transfer pairs, the "yes" metrics whose value the data
    may still leave empty: those declare why in ``Need.unless``)."""
    verdicts = feasibility(model, params=PARAMS, ste_tasks=ste_tasks)
    names = {m.name for m in verdicts if m.feasible}
    data_dependent = {m.name for m in verdicts if m.feasible and m.unless}
    pairs = {m.name: {f"{p.source}->{p.target}" for p in m.pairs if p.feasible} for m in verdicts if m.pairs}
    return names, pairs, data_dependent


def actual(model, log: Path, ste: list[Path] = ()) -> tuple[set[str], dict[str, set[str]]]:
    rows = compute_metrics(log, model, params=PARAMS, progress=False, ste=ste).rows
    rows = rows[rows["value"].notna()]
    names = set(rows["metric"])
    transfer = rows[rows["task"].astype(str).str.contains("->", regex=False) & rows["block"].isna()]
    pairs = {m: set(transfer[transfer["metric"] == m]["task"]) for m in
             ("forward_transfer_ratio", "forward_transfer_contrast", "backward_transfer_ratio",
              "backward_transfer_contrast")}
    return names, pairs


def check(text: str, tmp: Path, seed: int = 0, fmt: str = "csv", ste_tasks: list[str] | None = None) -> None:
    """Predict, simulate (and simulate an STE run per task of ``ste_tasks`` from its
    ``sylla new --type STE`` syllabus), compute, compare."""
    import tempfile

    model = parse(text, "s.json").model
    assert model is not None
    work = Path(tempfile.mkdtemp(dir=tmp))  # hypothesis reuses the function's tmp_path
    log = work / ("log.csv" if fmt == "csv" else "l2")
    frame = simulate(model, seed)
    write_csv(frame, log) if fmt == "csv" else write_l2logger(frame, log)
    ste = []
    for task in ste_tasks or ():
        ste_model = parse(build(Spec("STE", (task,), episodes=30)), "ste.json").model
        ste.append(work / f"ste_{task}")
        write_l2logger(simulate(ste_model, seed + 1), ste[-1])
    want_names, want_pairs, data_dependent = predicted(model, ste_tasks)
    got_names, got_pairs = actual(model, log, ste)
    assert got_names - want_names == set()  # a "no" is never wrong
    assert want_names - got_names - data_dependent == set()  # a "yes" is wrong unless the data decides
    for metric, pairs in want_pairs.items():
        assert pairs == got_pairs.get(metric, set()), metric


@st.composite
def syllabi(draw: st.DrawFn) -> str:
    """Random phase structures: train/test phases in any order (numbered as P302 wants when
    possible, but not necessarily alternating), blocks of 1-3 tasks, learning off in tests."""
    tasks = TASKS[: draw(st.integers(1, 3))]
    instructions: list[dict] = []
    number = 0
    kinds = draw(st.lists(st.sampled_from(["train", "test"]), min_size=1, max_size=6))
    if "train" not in kinds:
        kinds.insert(0, "train")
    for kind in kinds:
        if kind == "train":
            number += 1
            instructions.append({"$phase": f"{number}.train"})
        else:
            instructions.append({"$phase": f"{number}.test", "enable_updates": False})
        for task in draw(st.lists(st.sampled_from(tasks), min_size=1, max_size=3)):
            count = draw(st.integers(20, 40)) if kind == "train" else draw(st.integers(3, 8))
            instructions.append({"$repeat": {"$episode": task}, "count": count})
    return json.dumps({"instructions": instructions}, indent=2)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=syllabi(), seed=st.integers(0, 2**16), fmt=st.sampled_from(["csv", "l2logger"]),
       ste=st.one_of(st.none(), st.lists(st.sampled_from(TASKS), max_size=3, unique=True)))
@pytest.mark.slow
def test_random_structures(text: str, seed: int, fmt: str, ste: list[str] | None, tmp_path: Path) -> None:
    check(text, tmp_path, seed, fmt, ste or None)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["CL", "ANT-A", "ANT-B", "ANT-C", "STE"]), n=st.integers(2, 3), pretest=st.booleans(),
       fmt=st.sampled_from(["csv", "l2logger"]))
@pytest.mark.slow
def test_new_syllabi(kind: str, n: int, pretest: bool, fmt: str, tmp_path: Path) -> None:
    from sylla.grammar.syllabus.author import Variation

    tasks = tuple(TASKS[: 1 if kind in ("CL", "STE") else n])
    vary = (Variation(tasks[0], "w", (1, 2, 3)),) if kind in ("CL", "ANT-C") else ()
    text = build(Spec(kind, tasks, vary=vary, pretest=pretest and kind != "STE", episodes=30, test_episodes=5))
    check(text, tmp_path, fmt=fmt)


def _fixtures() -> list[Path]:
    found = []
    for folder in (ROOT / "examples", ROOT / "tests" / "fixtures"):
        found += sorted(p for p in folder.rglob("*.json*") if p.suffix in (".json", ".jsonc")
                        and not p.is_relative_to(ROOT / "tests" / "fixtures" / "rules"))  # RuleTester pairs
    out = []
    for p in found:
        try:
            model = load_syllabus(p)
        except (MetricsError, Exception):  # noqa: BLE001 - not a syllabus the metrics accept
            continue
        if model.phases and sum(b.count for b in model.blocks) <= 200_000:
            out.append(p)
    return out


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fixture(path: Path, tmp_path: Path) -> None:
    try:
        check(path.read_text(encoding="utf-8"), tmp_path)
    except MetricsError as exc:  # the metrics refuse the syllabus itself (e.g. schema problems)
        pytest.fail(f"sylla metrics refused a simulated log of {path.name}: {exc}")
