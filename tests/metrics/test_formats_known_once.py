"""Log formats are known in one place, the readers' registry (issue 39 item 4).

``READERS`` is the list: ``--log-format``'s choices (``sylla metrics``, ``sylla watch``) are read
off it, detection asks each reader whether a path is its format, and the compute path follows
what a reader and a plugin declare instead of branching on a format's name or probing a
plugin's members."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sylla.metrics.data import EpisodeLog
from sylla.metrics.readers import FOLLOWED, FORMATS, READERS, Reader, ReadRequest, detect, read_log
from sylla.metrics.registry import Parameter, row
from sylla.metrics.result import compute_metrics

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "metrics"
SYLLA = str(Path(sys.executable).with_name("sylla"))
#: the pipeline after the read, from the episode table to the rows (the output writers compare
#: output formats, some of which share a log format's name: csv, parquet)
COMPUTE_PATH = ("result.py", "align.py", "lanes.py", "registry.py", "data.py", "memo.py",
                "scheduled.py", "needs.py", "preprocess.py", "score_matrix.py")
NAMES = set(READERS)


def _named(node: ast.AST) -> set[str]:
    """The format names a comparison operand spells: a string, or a tuple/list/set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_named(e) for e in node.elts)) if node.elts else set()
    return set()


def branches_on_format_names(path: Path) -> list[str]:
    """Every comparison (``==``, ``in``, a ``match`` case) with a format's name in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            named = set().union(*(_named(n) for n in (node.left, *node.comparators)))
        elif isinstance(node, ast.MatchValue):
            named = _named(node.value)
        else:
            continue
        if named:
            found.append(f"{path}:{node.lineno}: {sorted(named)}")
    return found


def test_the_compute_path_branches_on_no_format_name() -> None:
    """What a format asks of the pipeline is the reader's declaration (`Reader.provides`,
    `Reader.runs_from_frame`, `Reader.checks_syllabus`), not an ``if fmt == ...``."""
    files = [ROOT / "metrics" / name for name in COMPUTE_PATH]
    files += sorted((ROOT / "metrics" / "plugins").glob("*.py"))
    found = [hit for path in files for hit in branches_on_format_names(path)]
    assert not found, "\n".join(found)


def test_the_watch_state_asks_the_reader_not_the_format_name() -> None:
    """`sylla watch` counts a continual-imitation run's progress phase by phase because its
    reader says its logs are not per episode (`Reader.per_episode`), not by the format's name."""
    assert not branches_on_format_names(ROOT / "metrics" / "watch" / "state.py")


def test_the_guard_sees_a_branch_on_a_format_name(tmp_path: Path) -> None:
    """The check above can fail: the branch compute_metrics had, and a ``match``."""
    probe = tmp_path / "probe.py"
    probe.write_text('def f(log):\n    if log.format == "iscil" or log.format in ("csv", "tsv"):\n'
                     '        return 1\n    match log.format:\n        case "parquet":\n'
                     '            return 2\n', encoding="utf-8")
    assert len(branches_on_format_names(probe)) == 3


def _copies_of_the_list(path: Path) -> list[str]:
    """Tuples, lists and sets spelling more than one family of formats (four names or more)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(_named(node)) >= 4:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_list_of_formats_is_written_once() -> None:
    """No command module, metrics module outside the readers, or bench writes the list again."""
    files = [p for p in (ROOT / "metrics").rglob("*.py") if "readers" not in p.parts]
    files += sorted((ROOT / "sylla" / "commands").glob("*.py"))
    files += sorted((ROOT / "bench").glob("*.py"))
    found = [hit for path in files for hit in _copies_of_the_list(path)]
    assert not found, "\n".join(found)


def _choices(command: str) -> list[str]:
    """``--log-format``'s choices as the real ``sylla COMMAND`` refuses a bad one."""
    proc = subprocess.run([SYLLA, command, str(FIX / "rewards.csv"), "--log-format", "nope"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    listed = proc.stderr.split("choose from", 1)[1]
    return [c.strip(" '\n,).") for c in listed.split(",") if c.strip(" '\n,).")]


def test_the_commands_offer_the_registry_s_formats() -> None:
    assert _choices("metrics") == list(FORMATS) == ["auto", *READERS]
    assert _choices("watch") == list(FOLLOWED)
    assert set(FOLLOWED) == {"auto"} | {n for n, r in READERS.items() if r.follows}
    assert "parquet" not in FOLLOWED  # read whole: no growing Parquet file to follow


class _Stub(Reader):
    """A format of one file suffix whose reader hands back a plain log's table."""

    name = "stubfmt"

    def claims(self, path: Path, search: bool = True) -> bool:
        return path.suffix == ".stub"

    def read(self, path: Path, request: ReadRequest) -> EpisodeLog:
        log = read_log(FIX / "rewards.csv")
        log.format = self.name
        return log


def test_detection_asks_each_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new format is one `Reader` in the registry: detection and reading find it there."""
    log = tmp_path / "run.stub"
    log.write_text("anything", encoding="utf-8")
    monkeypatch.setitem(READERS, "stubfmt", _Stub())
    assert detect(log) == "stubfmt"
    assert read_log(log).format == "stubfmt"


class _Finishing:
    """A third-party plugin that declares the optional members as their documented default,
    None: no step across runs, no text section of its own."""

    name = "explicit_none"
    description = "one row per run"
    emits = ("one",)
    inputs = ("log",)
    parameters: tuple[Parameter, ...] = ()
    finish = None
    render_text = None
    reads_columns = False

    def compute(self, ctx: Any) -> list[dict[str, Any]]:
        return [row("one", 1.0)]


def test_an_optional_member_declared_none_is_absent() -> None:
    """``finish = None`` and ``render_text = None`` mean "none", as leaving them out does
    (`sylla.metrics.registry.Defaults`); probing with ``hasattr`` called None."""
    from sylla.metrics.report import render_text

    result = compute_metrics(FIX / "l2logger_v11", plugins=[_Finishing()], progress=False)
    assert [r["metric"] for r in result.records] == ["one"]
    assert "one" in render_text(result)


def test_an_unknown_format_s_log_gets_the_pipeline_s_defaults() -> None:
    """A log built by hand in a format no reader knows is computed as before: every plugin."""
    log = read_log(FIX / "l2logger_v11")
    log.format = "made-up"
    assert json.dumps(compute_metrics(log, progress=False).to_json()) == json.dumps(
        compute_metrics(FIX / "l2logger_v11", progress=False).to_json())
