"""A RuleTester, as eslint has: every rule code has failing ("bad") and passing ("ok") cases,
each linted exactly as ``sylla lint`` lints it.

Why run the command and not a rule's ``check``: a rule that works in isolation but is never
reached (wrong language, config never read, finding filtered) is a rule users never see. So a
case is handed to ``sylla.cli.main(["lint", "--format", "json", ...])`` in this process, with the
config found the way the command finds it (the nearest sylla.toml beside the case), and the
findings are read back from the JSON report.

Where the cases of a rule ``CODE`` live
---------------------------------------
- any ``CODE_bad*`` / ``CODE_ok*`` file or folder under tests/fixtures (also ``CODE_<what>_bad*``,
  e.g. ``H501_flag_bad.json``), the fixtures older tests already use;
- ``tests/fixtures/rules/CODE/bad*`` and ``tests/fixtures/rules/CODE/ok*`` (a file, or a folder).

A case is a file or a folder:

- a file is linted as ``sylla lint FILE``;
- a folder holding a ``.csv`` or ``.md`` file is a wave-3 delivery: ``sylla lint FOLDER --trials
  JSON``, where JSON is the folder's own ``json/`` subfolder when it has one, else the trial files
  of tests/fixtures/trials/json;
- any other folder is linted as ``sylla lint FOLDER``: every syllabus, Science Birds config and
  trial file in it, with the ``sylla.toml`` (registry, metrics, ...) it holds.

What is asserted
----------------
- a bad case yields at least one finding with the code;
- when a bad case carries an expectation, the positions of that code are exactly the expected
  ones. The expectation is a line ``expect: LINE:COL CODE`` (several may follow one another, and
  a ``FILE:`` prefix names the file inside a folder case) written in the first lines of the file,
  inside a comment of its language (``// expect: 4:5 S101`` in JSONC, ``<!-- expect: ... -->`` in
  XML), or in a sidecar: ``bad.expect.txt`` beside a file ``bad.json``, ``expect.txt`` inside a
  folder case (strict JSON has no comments, and a comment would itself be an N601);
- an ok case yields no finding with the code. An ok case is the bad case with the minimal fix,
  so that the pair pins the rule's boundary, not just "some clean file".
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RULES = FIXTURES / "rules"
TRIALS = FIXTURES / "trials" / "json"
#: the suffix of a sidecar expectation beside a file case, and the name of one inside a folder case
SIDE_SUFFIX, SIDE_NAME = ".expect.txt", "expect.txt"
_EXPECT = re.compile(r"expect:\s*((?:(?:[^\s:]+:)?\d+:\d+\s+[A-Z]\d{3}[\s,;]*)+)")
_ONE = re.compile(r"(?:([^\s:]+):)?(\d+):(\d+)\s+([A-Z]\d{3})")


@dataclass(frozen=True)
class Position:
    """Where a finding is: the file (relative to a folder case, "" for a file case), line, column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file + ':' if self.file else ''}{self.line}:{self.col}"


@dataclass
class Case:
    """One fixture of one rule: ``kind`` is "bad" or "ok"; ``path`` a file or a folder."""

    code: str
    kind: str
    path: Path
    expected: list[Position] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.path.relative_to(FIXTURES)) if self.path.is_relative_to(FIXTURES) else str(self.path)


def _case_name(code: str) -> re.Pattern[str]:
    return re.compile(rf"^{code}(?:_[\w.-]+?)?_(bad|ok)(?:[._-]|$)")


@functools.cache
def _named_fixtures() -> tuple[Path, ...]:
    """Every file or folder under tests/fixtures whose name starts like a rule code (one walk)."""
    return tuple(sorted(p for p in FIXTURES.rglob("*") if re.match(r"[A-Z]\d{3}_", p.name)))


def find_cases(code: str) -> list[Case]:
    """Every bad and ok case of ``code``, sorted by path (expectation sidecars are not cases)."""
    cases: list[Case] = []
    named = _case_name(code)
    for path in _named_fixtures():
        m = named.match(path.name)
        if m and not path.name.endswith(SIDE_SUFFIX) and RULES not in path.parents:
            cases.append(Case(code, m.group(1), path))
    own = RULES / code
    if own.is_dir():
        for path in sorted(own.iterdir()):
            kind = "bad" if path.name.startswith("bad") else "ok" if path.name.startswith("ok") else None
            if kind and not path.name.endswith(SIDE_SUFFIX):
                cases.append(Case(code, kind, path))
    for case in cases:
        case.expected = expectations(case)
    return cases


def expectations(case: Case) -> list[Position]:
    """The positions a bad case says its code is found at (empty: any position will do)."""
    texts: list[str] = []
    if case.path.is_dir():
        side = case.path / SIDE_NAME
        if side.is_file():
            texts.append(side.read_text(encoding="utf-8"))
    else:
        side = case.path.with_name(case.path.name.split(".")[0] + SIDE_SUFFIX)
        if side.is_file():
            texts.append(side.read_text(encoding="utf-8"))
        head = case.path.read_bytes()[:600].decode("utf-8", "replace").splitlines()[:3]
        texts.extend(m.group(1) for line in head for m in [_EXPECT.search(line)] if m)
    out: list[Position] = []
    for text in texts:
        for file, line, col, code in _ONE.findall(text):
            if code == case.code:
                out.append(Position(file, int(line), int(col)))
    return sorted(out, key=lambda p: (p.file, p.line, p.col))


def is_delivery(folder: Path) -> bool:
    return any(p.suffix in (".csv", ".md") for p in folder.iterdir() if p.is_file())


def lint(case: Case) -> list[dict]:
    """The findings ``sylla lint`` reports for the case (the JSON reporter's objects).

    Raises AssertionError when the command fails in a way that is not a finding (usage error,
    unreadable config): a case that cannot be linted proves nothing."""
    from sylla.cli import main

    argv = ["lint", "--format", "json", "--fail-on", "error", str(case.path)]
    if case.path.is_dir() and is_delivery(case.path):
        trials = case.path / "json"
        argv += ["--trials", str(trials if trials.is_dir() else TRIALS)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    text = out.getvalue()
    assert status in (0, 1) or (status == 2 and text.startswith("[")), (
        f"{case.id}: sylla lint exited {status}: {err.getvalue().strip()}")
    return json.loads(text) if text.strip() else []


def position(case: Case, finding: dict) -> Position:
    where = Path(finding["path"])
    file = str(where.relative_to(case.path)) if case.path.is_dir() and where.is_relative_to(case.path) else ""
    return Position(file, finding["line"], finding["column"])


def check(case: Case) -> None:
    """Assert the case: a bad case triggers its code (where it says), an ok case does not."""
    found = lint(case)
    mine = sorted((position(case, f) for f in found if f["code"] == case.code), key=lambda p: (p.file, p.line, p.col))
    shown = "; ".join(f"{position(case, f)} {f['code']} {f['message']}" for f in found) or "no findings"
    if case.kind == "bad":
        assert mine, f"{case.id}: expected a {case.code} finding, got: {shown}"
        if case.expected:
            assert mine == case.expected, (
                f"{case.id}: {case.code} expected at {', '.join(map(str, case.expected))}, "
                f"found at {', '.join(map(str, mine))}")
    else:
        assert not mine, f"{case.id}: the ok case must not yield {case.code}, got: {shown}"
