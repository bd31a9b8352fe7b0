"""The reference text's test-set formula and the explain document, on numbers worked by hand."""

from __future__ import annotations

from pathlib import Path

from sylla.grammar.birds import parse
from sylla.grammar.birds.explain import explain, render_text
from sylla.grammar.birds.plan import n_testsets, plan, total_n_testsets

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "birds"


def meta(name: str):
    return parse((FIX / name).read_bytes(), name).model


def test_formula_on_the_worked_example() -> None:
    # per-level time 180 s x amount 2 = 360 s of training; checkpoint every 200 s:
    # ceil(360 / 200) = ceil(1.8) = 2; interaction 60000 / checkpoint 200 = ceil(300) = 300
    total, notes = total_n_testsets(180 * 2, 200, 60000, 200)
    assert (total, notes) == (2 + 300, [])
    # 302 x 50 / 100 = 151 exactly; 302 x 30 / 100 = 90.6 -> 91
    assert n_testsets(302, 50) == 151 and n_testsets(302, 30) == 91
    assert n_testsets(302, 100) == 302 and n_testsets(1, 1) == 1  # ceil(0.01) = 1, never 0


def test_disabled_limits_contribute_zero_and_say_so() -> None:
    total, notes = total_n_testsets(360, 0, 60000, 200)
    assert total == 300 and notes == ["the checkpoint time limit is off, so the time term contributes 0 test sets"]
    total, notes = total_n_testsets(360, 200, -1, 200)
    assert total == 2 and notes == ["the training interaction limit is off, so the interaction term contributes 0 test sets"]
    assert total_n_testsets(0, 0, 0, 0)[0] == 0


def test_plan_of_the_worked_example_fixture() -> None:
    p = plan(meta("worked-example.xml").trials[0])
    assert p.training_time == (360, 360)  # 180 x 2
    assert p.total_n_testsets == (302, 302)
    assert [s.n_testsets for s in p.test_sets] == [(151, 151), (91, 91)]
    assert p.generated == 3 * 2  # count 3, notify_novelty="both" doubles it


def test_amount_range_gives_a_range_of_test_sets() -> None:
    # real-shape: 180 x 2 + 180 x [10, 49] = [2160, 9180] s; ceil(2160/200) = 11, ceil(9180/200) = 46
    p = plan(meta("real-shape.xml").trials[0])
    assert p.training_time == (180 * 2 + 180 * 10, 180 * 2 + 180 * 49)
    assert p.total_n_testsets == (11 + 300, 46 + 300)


def test_explain_json_contract() -> None:
    doc = explain(meta("worked-example.xml"))
    assert doc["kind"] == "science-birds-meta"
    assert doc["totals"] == {"trial_templates": 1, "trials_generated": 6, "executions": 12}
    assert doc["novelty_detection"] == {"step": 1, "measure_in_training": True, "measure_in_testing": False, "requested": True}
    (t,) = doc["trials"]
    assert (t["line"], t["column"], t["count"], t["trials_generated"], t["repeats"], t["notify_novelty"]) == (5, 5, 3, 6, 2, "both")
    assert t["checkpoint"] == {"time": 200, "interaction": 200, "enabled": True}
    assert t["training"]["ordered"] is False and t["training"]["time_limit"] == {"min": 360, "max": 360}
    assert t["training"]["sets"][0]["time_limit"] == {"min": 360, "max": 360}
    assert t["test"]["ordered"] is False and t["test"]["total_n_testsets"] == {"min": 302, "max": 302}
    assert [x["test_sets"] for x in t["test"]["terms"]["max"]] == [2, 300]
    assert [s["n_testsets"] for s in t["test"]["sets"]] == [{"min": 151, "max": 151}, {"min": 91, "max": 91}]
    assert [e["event"] for e in t["timeline"]] == ["train", "checkpoint-tests", "training-ends", "final-test"]
    # the test sets run in all: the sum of each set's n_testsets, 151 + 91 (not total_n_testsets)
    assert t["timeline"][1]["count"] == {"min": 151 + 91, "max": 151 + 91}
    assert t["timeline"][2]["when"] == ["360 s of training", "60000 interactions", "3 attempts on every level"]


def test_explain_text_shows_the_formula_and_the_timeline() -> None:
    out = render_text(explain(meta("worked-example.xml")))
    assert "total_n_testsets = ceil(360 / 200) + ceil(60000 / 200) = 2 + 300 -> 302" in out
    assert "50% -> n_testsets 151" in out and "30% -> n_testsets 91" in out
    assert "count 3 (x2 for both) -> 6 trial(s), repeats 2" in out
    assert "2. at each checkpoint run the next test set (242 test sets in all, shuffled), then resume training" in out  # 151 + 91
    assert out.rstrip().endswith("4. final test")


def test_timeline_without_checkpoints_or_training_limits() -> None:
    text = (FIX / "worked-example.xml").read_text()
    for kind, value in (("time", "200"), ("interaction", "200")):
        text = text.replace(f'<limit type="{kind}">{value}</limit>', f'<limit type="{kind}">0</limit>', 1)
    for kind, value in (("time", "180"), ("interaction", "60000"), ("attempt_per_level", "3")):
        text = text.replace(f'<limit type="{kind}">{value}</limit>', f'<limit type="{kind}">0</limit>', 1)
    t = explain(parse(text).model)["trials"][0]
    assert t["checkpoint"]["enabled"] is False and t["test"]["total_n_testsets"] == {"min": 0, "max": 0}
    assert [e["event"] for e in t["timeline"]] == ["train", "training-ends"]
    assert "never ends" in t["timeline"][-1]["text"]
    assert len(t["notes"]) == 2


def test_describe_for_hover_shows_the_computed_counts() -> None:
    from sylla.grammar.birds.describe import describe, vocabulary

    result = parse((FIX / "worked-example.xml").read_bytes())
    text = result.text
    # on the 30 % test set's element: its n_testsets, worked by hand above (91 of 302)
    second = text.index('<game_level_set novelty_level="1" novelty_type="1" amount="5"')
    assert describe(result, second + 1).endswith("n_testsets 91 of total_n_testsets 302")
    # on the trial: 3 x 2 (both) trials, repeats 2, 360 s of training
    trial = text.index("<trial ")
    assert "Generates 6 trial(s), each executed 2 time(s); training time 360 s; total_n_testsets 302" in describe(result, trial + 1)
    amount = text.index('amount="2"')
    assert describe(result, amount).startswith("**amount** on `<game_level_set>`")
    assert describe(result, 0) is None  # the XML declaration is outside every element
    vocab = vocabulary("meta")
    assert vocab["trial"].children == ("count", "repeats", "checkpoint", "training", "test")
    assert vocab["trial"].attributes == {"notify_novelty": ("true", "false", "both")}
    assert vocabulary("generated")["game_level_set"].attributes["allow_level_selection"] == ("True", "False")
