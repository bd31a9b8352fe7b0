"""How a log's tasks meet their STE runs and range keys, and the log shapes l2logger really writes.

Each test is metamorphic: a log is changed the way a real run or a user changes it (task names
in another case, exp_num counted from 1, blocks spread over two workers, a range file keyed by
variant instead of base) and the numbers must stay those of the plain log, or change exactly as
documented (``--l2metrics-compat``). Every test here failed before the defects of issue 23 were
fixed: l2metrics lower-cases task names, merges variant ranges, accepts both exp_num origins and
several workers; sylla did not.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sylla.cli import main
from sylla.metrics.synth import alternating_plan, write_l2logger

from .conftest import assert_same_document

TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]


def _log(root: Path, tasks: list[str] = TASKS, seed: int = 4) -> Path:
    return write_l2logger(root, alternating_plan(tasks, 50, 10, cycles=2), seed=seed,
                          rows_per_exp=2)


def _stes(root: Path, tasks: list[str]) -> list[Path]:
    return [write_l2logger(root / f"{t}-{k}", [("train", [(t, 60 + 7 * k)])], seed=30 + 3 * i + k)
            for i, t in enumerate(tasks) for k in range(2)]


def _metrics(log: Path, stes: list[Path], capsys: pytest.CaptureFixture[str],
             *extra: str) -> tuple[dict, str]:
    args = ["metrics", "--no-progress", "-f", "json", "-l", str(log), *extra]
    args += [a for s in stes for a in ("--ste", str(s))]
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out), out.err


def _edit(log: Path, change) -> None:
    """Rewrite every data-log.tsv of an l2logger run in place, row by row."""
    for tsv in sorted(log.glob("*/*/data-log.tsv")):
        lines = tsv.read_text().splitlines()
        header = lines[0].split("\t")
        rows = [change(header, line.split("\t")) for line in lines[1:]]
        tsv.write_text("\n".join(["\t".join(header)] + ["\t".join(r) for r in rows]) + "\n")


def _set(column: str, value):
    def change(header: list[str], row: list[str]) -> list[str]:
        row[header.index(column)] = value(row[header.index(column)], row, header)
        return row
    return change


def _lower_keys(doc: dict) -> dict:
    return {k.lower(): v for k, v in doc.items()}


@pytest.mark.parametrize("extra", [(), ("-P", "clamp_outliers=true")])
def test_upper_case_log_meets_lower_case_ste_runs(tmp_path, capsys, extra):
    log = _log(tmp_path / "log")
    stes = _stes(tmp_path / "ste", TASKS[:2])
    plain, _ = _metrics(log, stes, capsys, *extra)
    _edit(log, _set("task_name", lambda v, *_: v.upper()))
    upper, _ = _metrics(log, stes, capsys, *extra)
    assert "ste_rel_perf" in upper["lifetime"] and "sample_efficiency" in upper["lifetime"]
    assert_same_document(upper["lifetime"], plain["lifetime"])
    # the log's own spelling is kept (tasks and transfer pairs such as ALPHA_V0->BETA_V0)
    assert {t.split("->")[0] for t in upper["tasks"]} == {t.upper() for t in TASKS}
    assert_same_document(_lower_keys(upper["tasks"]), plain["tasks"])


def test_one_task_in_two_spellings_is_one_task_with_a_warning(tmp_path, capsys):
    log = _log(tmp_path / "log")
    stes = _stes(tmp_path / "ste", TASKS[:1])
    plain, _ = _metrics(log, stes, capsys)
    blocks = sorted(log.glob("*/*-test"), key=lambda p: int(p.name.split("-")[0]))
    for folder in blocks[1::2]:  # every other test block, not the first, writes Alpha_V0
        tsv = folder / "data-log.tsv"
        tsv.write_text(tsv.read_text().replace("\talpha_v0\t", "\tAlpha_V0\t"))
    mixed, err = _metrics(log, stes, capsys)
    # one task, under the spelling written first
    assert "alpha_v0" in mixed["tasks"] and "Alpha_V0" not in mixed["tasks"]
    assert_same_document(mixed["lifetime"], plain["lifetime"])
    assert any("Alpha_V0" in w and "alpha_v0" in w for w in mixed["warnings"]), mixed["warnings"]


def test_agnostic_ste_matching_takes_exact_base_names_unless_compat(tmp_path, capsys):
    """Task ``ab`` (from ``ab_x``) must not take the STE runs of ``abc_y`` by default;
    ``--l2metrics-compat`` reproduces l2metrics' ``<task>*`` glob, which does."""
    names = ["ab_x", "abc_y", "b_z"]
    log = _log(tmp_path / "log", names)
    stes = _stes(tmp_path / "ste", names)
    agnostic = ("-P", "variant_mode=agnostic")
    default, _ = _metrics(log, stes, capsys, *agnostic)
    compat, _ = _metrics(log, stes, capsys, *agnostic, "--l2metrics-compat")
    # the same log with abc_y renamed to a name that shares no prefix: ab's runs are its own
    renamed = tmp_path / "renamed"
    shutil.copytree(log, renamed)
    _edit(renamed, _set("task_name", lambda v, *_: "q_y" if v == "abc_y" else v))
    ste_dir = tmp_path / "ste-renamed"
    shutil.copytree(tmp_path / "ste", ste_dir)
    for run in ste_dir.iterdir():
        _edit(run, _set("task_name", lambda v, *_: "q_y" if v == "abc_y" else v))
    clean, _ = _metrics(renamed, sorted(ste_dir.iterdir()), capsys, *agnostic)
    assert_same_document(default["tasks"]["ab"], clean["tasks"]["ab"])
    assert compat["tasks"]["ab"]["ste_rel_perf"] != default["tasks"]["ab"]["ste_rel_perf"]
    assert_same_document(compat["tasks"]["abc"], default["tasks"]["abc"])


def test_agnostic_mode_merges_a_variant_keyed_range_file(tmp_path, capsys):
    names = ["alpha_v0", "alpha_v1", "beta_v0"]
    log = _log(tmp_path / "log", names)
    by_variant = tmp_path / "variant.json"
    by_variant.write_text(json.dumps({"alpha_v0": {"min": -3, "max": 40},
                                      "alpha_v1": {"min": -8, "max": 30},
                                      "beta_v0": {"min": 0, "max": 25}}))
    by_base = tmp_path / "base.json"
    by_base.write_text(json.dumps({"alpha": {"min": -8, "max": 40},
                                   "beta": {"min": 0, "max": 25}}))
    agnostic = ("-P", "variant_mode=agnostic")
    merged, _ = _metrics(log, [], capsys, *agnostic, "-P", f"data_range={by_variant}")
    base, _ = _metrics(log, [], capsys, *agnostic, "-P", f"data_range={by_base}")
    assert_same_document(merged, base)


def test_exp_num_counted_from_one_gives_the_same_numbers_with_a_note(tmp_path, capsys):
    log = _log(tmp_path / "log")
    plain, _ = _metrics(log, [], capsys)
    _edit(log, _set("exp_num", lambda v, *_: str(int(v) + 1)))
    shifted, err = _metrics(log, [], capsys)  # no --allow-partial
    assert_same_document(shifted["lifetime"], plain["lifetime"])
    assert_same_document(shifted["tasks"], plain["tasks"])
    notes = [w for w in shifted["warnings"] if "exp_num" in w]
    assert len(notes) == 1 and "1" in notes[0], shifted["warnings"]


def test_blocks_spread_over_two_workers_read_as_one_run(tmp_path, capsys):
    """l2logger's parallel workflow: workers draw block and experience numbers from one counter
    and each writes its own folder; the log is the union of the folders."""
    log = _log(tmp_path / "log")
    plain, _ = _metrics(log, [], capsys)
    first = log / "worker-default"
    second = log / "worker-1"
    second.mkdir()
    for folder in sorted(first.iterdir()):
        if int(folder.name.split("-")[0]) % 2:
            folder.rename(second / folder.name)
    _edit(log, _set("worker_id", lambda v, row, header: "worker-1"
                    if int(row[header.index("block_num")]) % 2 else v))
    split, err = _metrics(log, [], capsys)
    assert_same_document(split["lifetime"], plain["lifetime"])
    assert_same_document(split["tasks"], plain["tasks"])
