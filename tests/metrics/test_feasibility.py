"""Metric feasibility from a syllabus alone: verdicts reasoned by hand from each fixture's
structure (and from the plugins' definitions in docs/metrics.md), the explain --metrics JSON
contract, and the M901 lint finding at the place that needs the change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.grammar.syllabus.author import Spec, build
from sylla.grammar.syllabus.parse import parse
from sylla.linter import Config, ConfigError, lint, load_config
from sylla.metrics.feasibility import feasibility
from sylla.metrics.needs import Need, needs_of
from sylla.metrics.registry import load_plugins

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "metrics" / "feasibility"


def verdicts(text: str | bytes, **kw) -> dict:
    model = parse(text, "x.json").model
    assert model is not None
    return {m.name: m for m in feasibility(model, **kw)}


def pairs(m) -> dict[tuple[str, str], bool]:
    return {(p.source, p.target): p.feasible for p in m.pairs}


def test_every_builtin_metric_declares_its_needs() -> None:
    for plugin in load_plugins():
        assert set(needs_of(plugin)) == set(plugin.emits), plugin.name


def test_undeclared_plugin_is_assumed_not_refused() -> None:
    class Third:
        name, description, emits, inputs, parameters = "third", "", ("x",), ("log",), ()

        def compute(self, ctx):
            return []

    m = verdicts(build(Spec("STE", ("Pong",))), plugins=[Third()])["x"]
    assert m.feasible and not m.declared and "declares no needs" in m.reason
    with pytest.raises(ValueError, match="unknown schedule need"):
        Need("nonsense")


def test_one_pass_ant_b() -> None:
    # 1.train Pong, 1.test Breakout, 2.train Breakout, 2.test Pong: one train block per task,
    # each task tested exactly once.
    v = verdicts((FIX / "one_pass.json").read_bytes())
    assert v["saturation_value"].feasible and v["avg_eval_perf"].feasible
    assert v["test_perf"].feasible  # Pong is tested (2.test) after its training
    assert v["test_perf_baseline"].feasible  # Breakout is tested (1.test) before its training
    assert not v["recovery_time"].feasible and "train Pong in 1 more block" in v["recovery_time"].fix
    assert not v["perf_recovery"].feasible and "3 train blocks" in v["perf_recovery"].reason
    # l2metrics transfer needs two tests of the target around the source's training: none here
    fwd = v["forward_transfer_ratio"]
    assert not fwd.feasible and pairs(fwd) == {("Pong", "Breakout"): False, ("Breakout", "Pong"): False}
    assert "0.test" in fwd.fix
    # maintenance needs a second evaluation after the first post-training one
    assert not v["perf_maintenance_mrlep"].feasible
    # GEM: the last test phase lacks Breakout, so ACC is NaN
    assert not v["gem_acc"].feasible and "Breakout" in v["gem_acc"].reason
    # contrast is only emitted under -P transfer_method=contrast|both
    assert "transfer_method" in v["forward_transfer_contrast"].reason
    assert verdicts((FIX / "one_pass.json").read_bytes(), params={"transfer_method": "both"})[
        "forward_transfer_contrast"].reason.startswith("no task pair")
    # STE metrics need STE runs, which a syllabus does not hold
    assert not v["ste_rel_perf"].feasible and "--ste" in v["ste_rel_perf"].fix
    assert verdicts((FIX / "one_pass.json").read_bytes(), ste_tasks=["pong"])["ste_rel_perf"].feasible


def test_new_ant_b_with_pretest_has_both_directions() -> None:
    v = verdicts(build(Spec("ANT-B", ("Pong", "Breakout"), pretest=True)),
                 params={"maintenance_method": "both", "transfer_method": "both"})
    # Pong (1.train) lies between Breakout's tests in 0.test and 1.test, before Breakout's training
    assert pairs(v["forward_transfer_ratio"]) == {("Pong", "Breakout"): True, ("Breakout", "Pong"): False}
    # Breakout (2.train) lies between Pong's tests in 1.test and 2.test, after Pong's training
    assert pairs(v["backward_transfer_ratio"]) == {("Pong", "Breakout"): False, ("Breakout", "Pong"): True}
    # Pong: first post-training test 1.test, evaluated again in 2.test
    assert v["perf_maintenance_mrtlp"].feasible
    for name in ("gem_acc", "gem_bwt_paper", "gem_fwt_code", "test_matrix_baseline"):
        assert v[name].feasible, name


def test_later_pair_on_the_same_test_replaces_the_earlier() -> None:
    # Pong and Breakout are both trained in 1.train between Freeway's tests in 0.test and 1.test:
    # l2metrics keys the value by that later test, so Breakout->Freeway (later in task order) wins.
    v = verdicts((FIX / "shared_test.json").read_bytes())
    fwd = {(p.source, p.target): p for p in v["forward_transfer_ratio"].pairs}
    assert fwd[("Breakout", "Freeway")].feasible
    assert not fwd[("Pong", "Freeway")].feasible and "replaced by Breakout->Freeway" in fwd[("Pong", "Freeway")].reason
    # Pong's block precedes Breakout's first training (same phase, earlier block) and lies between
    # Breakout's tests in 0.test and 1.test, so Pong->Breakout is a forward pair.
    assert fwd[("Pong", "Breakout")].feasible


def test_explain_metrics_json_contract() -> None:
    proc = subprocess.run([sys.executable, "-m", "sylla", "explain", str(FIX / "one_pass.json"), "--metrics",
                           "-f", "json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    for m in doc["metrics"]:
        assert {"name", "feasible", "reason", "fix", "pairs"} <= set(m)
        assert isinstance(m["feasible"], bool) and (m["feasible"] or m["reason"])
        for p in m["pairs"]:
            assert set(p) == {"source", "target", "feasible", "reason"}
    names = [m["name"] for m in doc["metrics"]]
    assert "forward_transfer_ratio" in names and "iscil_bwt" not in names
    text = subprocess.run([sys.executable, "-m", "sylla", "explain", str(FIX / "one_pass.json"), "--metrics"],
                          capture_output=True, text=True, timeout=60).stdout
    assert "perf_recovery" in text and "Pong->Breakout" in text


def test_lint_reports_required_metric_at_the_block_to_change() -> None:
    path = FIX / "one_pass.json"
    result = lint(path.read_bytes(), str(path), load_config(str(path)))
    found = [(result.parse.lines.line_col(f.span.start), f.message) for f in result.findings if f.code == "M901"]
    # the sylla.toml beside it requires perf_recovery, forward_transfer_ratio and test_perf;
    # test_perf is feasible; the other two point at Pong's train block (line 6, column 5)
    assert [pos for pos, _ in found] == [(6, 5), (6, 5)]
    assert "perf_recovery" in found[0][1] and "train Pong in 2 more blocks" in found[0][1]
    assert "forward_transfer_ratio" in found[1][1]


def test_require_metric_option_adds_to_config_and_unknown_names_get_a_hint() -> None:
    path = FIX / "one_pass.json"
    config = load_config(str(path), {"require-metric": ["avg_eval_perf", "fwd_transfer_ratio"]})
    assert config.metrics[:3] == ("perf_recovery", "forward_transfer_ratio", "test_perf")
    msgs = [f.message for f in lint(path.read_bytes(), str(path), config).findings if f.code == "M901"]
    assert any('did you mean "forward_transfer_ratio"' in m for m in msgs)
    assert not [f for f in lint(path.read_bytes(), str(path), Config()).findings if f.code == "M901"]


def test_bad_metrics_config_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "sylla.toml").write_text('metrics = "perf_recovery"\n')
    with pytest.raises(ConfigError, match="sylla.toml:1: metrics must be a list"):
        load_config(str(tmp_path / "x.json"))


@pytest.mark.slow
def test_cli_require_metric_exit_code(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(build(Spec("ANT-B", ("Pong", "Breakout"))))
    run = lambda *a: subprocess.run([sys.executable, "-m", "sylla", "lint", str(f), *a],
                                    capture_output=True, text=True, timeout=60)
    assert run("--require-metric", "test_perf").returncode == 0
    proc = run("--require-metric", "recovery_time")
    assert proc.returncode == 1 and "M901" in proc.stdout
