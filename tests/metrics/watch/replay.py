"""Replay a finished run as its tools wrote it: side files whole first, then each data file
line by line in the order the run wrote them (block folders in natural order).

Used in-process by the equality tests (materialise the log at a cut point) and as a script by
the browser and ``--check`` tests (a writer process that extends a run while it is watched):

    python replay.py FIXTURE TARGET [--delay S] [--wrong-task EPISODE:NAME] [--half]
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import time
from pathlib import Path


def _natural(path: Path) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(path)))


def events(fixture: Path) -> tuple[list[Path], list[tuple[Path, bytes]]]:
    """The side files (written whole) and the data lines in writing order."""
    if fixture.is_file():
        return [], [(Path(fixture.name), line) for line in fixture.read_bytes().splitlines(True)]
    files = sorted((p for p in fixture.rglob("*") if p.is_file()), key=_natural)
    side = [p.relative_to(fixture) for p in files if p.suffix == ".json"]
    lines = [(p.relative_to(fixture), line) for p in files if p.suffix != ".json"
             for line in p.read_bytes().splitlines(True)]
    if (fixture / "logger_info.json").exists():
        lines = _by_time(lines)
    return side, lines


def _by_time(lines: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
    """An l2logger run's lines in the order its workers wrote them (each row's ``timestamp``;
    a file's header just before its first row): several workers write their files at once."""
    stamps: list[bytes] = []
    column: dict[Path, int] = {}
    first: dict[Path, bytes] = {}
    for rel, line in lines:
        cells = line.rstrip(b"\n").split(b"\t")
        if rel not in column:  # the file's header
            column[rel] = cells.index(b"timestamp")
            stamps.append(b"")
            continue
        stamps.append(cells[column[rel]])
        first.setdefault(rel, stamps[-1])
    keys = [stamp or first.get(rel, b"") for (rel, _), stamp in zip(lines, stamps)]
    order = sorted(range(len(lines)), key=lambda i: keys[i])  # stable: ties keep file order
    return [lines[i] for i in order]


def materialise(fixture: Path, target: Path, cut: int, half: bytes = b"") -> None:
    """Write the first ``cut`` data lines of the fixture into ``target`` (and ``half``, the
    start of a line not yet finished, after them)."""
    side, lines = events(fixture)
    if target.exists():
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    base = target if fixture.is_dir() else target.parent
    for rel in side:
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(fixture / rel, base / rel)
    last = None
    for rel, line in lines[:cut]:
        out = target if fixture.is_file() else base / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "ab") as handle:
            handle.write(line)
        last = out
    if half and last is not None:
        with open(last, "ab") as handle:
            handle.write(half)


class Appender:
    """Extend a run in place, as its writer does: whole side files first, then data lines,
    optionally leaving the first half of the next line written (a writer mid-``write``)."""

    def __init__(self, fixture: Path, target: Path) -> None:
        self.fixture, self.target = fixture, target
        self.side, self.lines = events(fixture)
        self.base = target if fixture.is_dir() else target.parent
        self.done = 0  # whole lines written
        self.half = 0  # bytes of line ``done`` already written
        for rel in self.side:
            (self.base / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fixture / rel, self.base / rel)

    def _out(self, rel: Path) -> Path:
        return self.target if self.fixture.is_file() else self.base / rel

    def advance(self, cut: int, half: bool = False) -> None:
        """Write lines up to ``cut`` (finishing a half-written one), then maybe half the next."""
        while self.done < min(cut, len(self.lines)):
            rel, line = self.lines[self.done]
            out = self._out(rel)
            out.parent.mkdir(parents=True, exist_ok=True)
            with open(out, "ab") as handle:
                handle.write(line[self.half:])
            self.done, self.half = self.done + 1, 0
        if half and self.done < len(self.lines):
            rel, line = self.lines[self.done]
            out = self._out(rel)
            out.parent.mkdir(parents=True, exist_ok=True)
            with open(out, "ab") as handle:
                handle.write(line[self.half: len(line) // 2])
            self.half = max(self.half, len(line) // 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("fixture", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between lines")
    parser.add_argument("--block-pause", type=float, default=0.0,
                        help="seconds to wait before each new data file (a new block)")
    parser.add_argument("--wrong-task", default="", metavar="LINE:OLD:NEW",
                        help="in the LINE-th data line (0-based), write task NEW for OLD")
    parser.add_argument("--half", action="store_true", help="write every third line in two "
                        "halves with a pause between them")
    args = parser.parse_args(argv)
    side, lines = events(args.fixture)
    base = args.target if args.fixture.is_dir() else args.target.parent
    for rel in side:
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.fixture / rel, base / rel)
    wrong = args.wrong_task.split(":") if args.wrong_task else None
    previous = None
    for k, (rel, line) in enumerate(lines):
        out = args.target if args.fixture.is_file() else base / rel
        if out != previous and args.block_pause:
            time.sleep(args.block_pause)
        previous = out
        if wrong and k == int(wrong[0]):
            line = line.replace(wrong[1].encode(), wrong[2].encode())
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "ab") as handle:
            if args.half and k % 3 == 2:
                handle.write(line[: len(line) // 2])
                handle.flush()
                time.sleep(max(args.delay, 0.05))
                handle.write(line[len(line) // 2:])
            else:
                handle.write(line)
        if args.delay:
            time.sleep(args.delay)
    print("replay: done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
