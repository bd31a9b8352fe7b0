"""Continual-imitation (IsCiL-style) ``training_log.log`` files: phases and evaluation lines.

Layout ``<root>/<algo>/<env>/<experiment>/training_log.log``. A phase opens at a line whose first
token starts with ``{'data_name':`` (the trainer's printed config; its ``data_name`` value, split
on commas and with spaces turned into ``-``, names the phase's train tasks). Evaluations are
old-style ``[0]skill is  ['a', 'b'] rew : 3.67`` (out of 4.0) or new-style
``[task 0] sub_goal sequence is ['a', 'b'] task GC : 66.67% (2.67 / 4.00)`` (raw / max); a later
line for a task replaces an earlier one within its phase, and phases without evaluations are
dropped.

The file is memory-mapped and its lines are classified in bulk by one compiled pattern (see
`PhaseScan.feed`), because a training log is mostly loss lines, and even its evaluation lines are
too many for a Python step each with a few regular expressions (see ``bench/iscil.py``, whose
``--dense`` log is 10 % evaluation lines). Everything that looks like an evaluation but cannot be
read is an error naming the file and line: a wrong number silently becoming 0 would change every
metric.

Besides the strict reading, ``compat=True`` also records what the reference script makes of the
same lines (its tokeniser, its names, its number handling); see docs/metrics.md for the list.
"""

from __future__ import annotations

import ast
import json
import math
import mmap
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ..data import BLOCK_COLUMNS, Columns, EpisodeLog, RunData

if TYPE_CHECKING:
    import pandas as pd
from ..errors import EXIT_USAGE, MetricsError
from .common import LARGEST, too_large
from .iscil_info import run_info  # noqa: F401 - re-exported
from .sniff import ISCIL_LOG

LOG_NAME = ISCIL_LOG
OLD_STYLE_MAX = 4.0
SNIFF_BYTES = 1 << 16

# The three line openings; the rest of the line is checked by the shape regexes below.
_OPENING = re.compile(
    rb"[ \t]*(?:(?P<phase>\{'data_name':)|(?P<new>\[task[ \t]+\d+\][ \t]*sub_goal sequence is)"
    rb"|(?P<old>\[\d+\]skill is))")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NEW_REST = re.compile(r"[ \t]*(\[.*\])[ \t]+task GC[ \t]*:[^(\n]*\([ \t]*(\S+?)[ \t]*/[ \t]*(\S+?)"
                       r"[ \t]*\)[ \t]*$")
_OLD_REST = re.compile(r"[ \t]+(\[.*\])[ \t]+rew[ \t]*:[ \t]*(\S+)[ \t]*$")
_DATA_NAME = re.compile(r"[ \t]*('(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")")
_IS_NUMBER = re.compile(_NUMBER + r"\Z")
_SNIFF = re.compile(rb"(?m)^[ \t]*(?:\{'data_name':|\[task[ \t]+\d+\][ \t]*sub_goal sequence is"
                    rb"|\[\d+\]skill is )")


@dataclass
class Evaluation:
    """One task's score in one phase: ``raw / max`` is the normalised score s_t(p)."""

    task: str
    raw: float
    max: float
    line: int

    @property
    def score(self) -> float:
        return self.raw / self.max


@dataclass
class Phase:
    """A phase of the log: its 1-based number among all phase lines, where it opens, the tasks
    it trains and its evaluations (task -> the last evaluation line for it)."""

    number: int
    line: int
    train: list[str]
    evals: dict[str, Evaluation] = field(default_factory=dict)


@dataclass
class Experiment:
    """One ``training_log.log``: every phase (``all_phases``, for the syllabus check), the kept
    ones (with evaluations), and, when asked, the reference script's reading of it."""

    name: str
    file: str
    all_phases: list[Phase]
    compat: list[tuple[list[str], dict[str, tuple[float, float]]]] | None = None

    @property
    def phases(self) -> list[Phase]:
        return [p for p in self.all_phases if p.evals]


class IscilLog(EpisodeLog):
    """The pipeline's `EpisodeLog` plus the parsed experiments it came from.

    The per-row table is built on first use: the pipeline reads `runs` (built without pandas,
    see `runs_of`), only other callers (a sweep, tests, variant-agnostic mode) read ``frame``.
    Not a dataclass of its own: a dataclass field (``EpisodeLog.frame``) cannot be overridden
    by a property in one, so the fields are passed on to `EpisodeLog`'s ``__init__``."""

    def __init__(self, *, experiments: list[Experiment], path: str, files: list[str],
                 runs: list[RunData] | None) -> None:
        self._table: pd.DataFrame | None = None
        self.experiments = experiments
        super().__init__(frame=None, path=path, format="iscil", files=files, runs=runs)

    @property
    def frame(self) -> "pd.DataFrame":
        if self._table is None:
            self._table = _frame(self.experiments)
        return self._table

    @frame.setter
    def frame(self, value: "pd.DataFrame | None") -> None:
        self._table = value


# --- finding the logs ---------------------------------------------------------------------------

def is_iscil(path: Path, search: bool = True) -> bool:
    """A file whose first 64 KiB hold a phase or evaluation line (or a file named
    ``training_log.log`` that is empty, blank, binary or unreadable, so that the reader can say
    what is wrong with it), or a directory with such a ``training_log.log`` in it or (with ``search``)
    anywhere below it. A sweep
    passes ``search=False``: there each experiment folder is a run of its own, and searching
    every folder's whole subtree on the way down costs a walk per level."""
    if path.is_file():
        return _sniff(path)
    if path.is_dir():
        direct = path / LOG_NAME
        if direct.is_file():
            return _sniff(direct)
        return search and any(_sniff(p) for p in sorted(path.rglob(LOG_NAME)) if p.is_file())
    return False


def _sniff(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return path.name == LOG_NAME  # the reader says why it cannot be read
    if not head.strip() or b"\x00" in head:
        return path.name == LOG_NAME  # the reader says it is empty, or binary
    return _SNIFF.search(head) is not None


def find_logs(path: Path, name_filter: str = "") -> list[tuple[str, Path]]:
    """(run name, file) for a log file, an experiment folder, or a root searched recursively;
    under a root only experiment folders whose name contains ``name_filter`` count. Sorted by
    path, as the reference script sorts its experiments."""
    if not path.exists():
        raise MetricsError("no such file or directory", str(path), exit_code=EXIT_USAGE)
    if path.is_file():
        return [(path.resolve().parent.name or path.name, path)]
    if (path / LOG_NAME).is_file():
        return [(path.resolve().name, path / LOG_NAME)]
    if (path / LOG_NAME).is_dir():
        raise MetricsError(f"{LOG_NAME} here is a directory, not a continual-imitation "
                           "training log", str(path / LOG_NAME), exit_code=EXIT_USAGE)
    found = sorted((p for p in path.rglob(LOG_NAME) if p.is_file()), key=lambda p: str(p))
    chosen = [p for p in found if name_filter in p.parent.name]
    if not chosen:
        what = f" whose experiment folder name contains {name_filter!r}" if name_filter else ""
        raise MetricsError(f"no {LOG_NAME}{what} under this directory "
                           f"({len(found)} log(s) in all)", str(path), exit_code=EXIT_USAGE)
    return [(p.parent.relative_to(path).as_posix(), p) for p in chosen]


# --- reading ------------------------------------------------------------------------------------

def read_iscil(path: str | Path, name_filter: str = "", compat: bool = False) -> IscilLog:
    """Every experiment under ``path`` as one `EpisodeLog`: per experiment (a run) and kept
    phase, one train row per train task (performance NaN: the log records no training
    performance) and one test row per evaluated task holding its normalised score."""
    path = Path(path)
    experiments = []
    for _index, (name, file) in enumerate(find_logs(path, name_filter)):
        if file.stat().st_size == 0:
            raise MetricsError("the file is empty: a continual-imitation training log holds "
                               "its run's phases and evaluations", str(file))
        with _open(file) as data:
            phases = parse_phases(data, str(file), allow_over_max=compat)
            experiment = Experiment(name=name, file=str(file), all_phases=phases)
            check_yields(experiment)
            if compat:
                experiment.compat = parse_compat(bytes(data), str(file))
        experiments.append(experiment)
    return IscilLog(path=str(path), files=[e.file for e in experiments], experiments=experiments,
                    runs=runs_of(experiments))


@contextmanager
def _open(file: Path) -> "Iterator[bytes | mmap.mmap]":
    """The file's bytes, memory-mapped (no 60 MB copy for a long log; empty files can't be)."""
    try:
        with open(file, "rb") as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                yield b""
                return
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
                yield mapped
    except OSError as exc:
        raise MetricsError(f"cannot read: {exc.strerror}", str(file),
                           exit_code=EXIT_USAGE) from None


def decode(data: bytes, file: str) -> str:
    """The text with every line break as ``\\n``, or an error for a binary or non-UTF-8 file."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise MetricsError("binary file (a NUL byte), not a training log", file,
                           data.count(b"\n", 0, nul) + 1, exit_code=EXIT_USAGE)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MetricsError("binary file (not UTF-8 text), not a training log", file,
                           data.count(b"\n", 0, exc.start) + 1, exit_code=EXIT_USAGE) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def parse_phases(data: "bytes | mmap.mmap", file: str,
                 allow_over_max: bool = False) -> list[Phase]:
    """All phases of one log in order (including those without evaluations); see
    `PhaseScan.feed` for how the lines are found without a Python step per line."""
    scan = PhaseScan(file, allow_over_max)
    scan.feed(_normalise(data, file))
    return scan.result()


class PhaseScan:
    """The phases of one log read so far, fed its lines in pieces: `parse_phases` feeds the
    whole file once, ``sylla watch`` (`sylla.metrics.watch.iscil_tail`) each piece of whole
    lines appended since the last update, so a growing log is scanned once in all.

    Why one class for both: the result must be the batch reader's at every cut, and it is
    when both run this code. What a line means depends only on the lines before it (the last
    phase, the name and score caches, the line count), all kept here,
    so feeding the lines in pieces gives what feeding them at once gives. A piece must start
    at a line start and hold whole lines (the last may lack its newline only at the end of
    the file); `_normalise` is the caller's (it judges the whole file's line ends)."""

    def __init__(self, file: str, allow_over_max: bool = False) -> None:
        self.file = file
        self.allow_over_max = allow_over_max
        self.phases: list[Phase] = []
        self.names: dict[str, str] = {}
        self.line = 1  # the line number of the next piece's first line
        # sub-goal lists (as bytes) and (raw, max) numbers already read on an earlier line
        self.fast_names: dict[bytes, str] = {}
        self.scores: dict[tuple[bytes, bytes | None], tuple[float, float]] = {}

    def result(self) -> list[Phase]:
        """The phases, or the reader's error for a log with none."""
        if not self.phases:
            raise MetricsError("no phase: no line starts with {'data_name': ... (is this a "
                               "continual-imitation training_log.log?)", self.file)
        return self.phases

    def feed(self, data: "bytes | mmap.mmap") -> None:
        """Scan the next piece of whole lines; an error leaves the scan unusable.

        One compiled pattern finds the lines that open with a phase or evaluation token and,
        in the same step, reads a well-formed evaluation line whole (`_LINE`), over spans of
        the piece that hold every quoted line (`_quoted_windows`; only lines holding a quote
        count). Python then spends a few dictionary lookups per evaluation line: names and
        scores repeat, so each distinct sub-goal list and score is read and checked once. A
        line the pattern does not read whole (a phase line, a malformed or non-ASCII evaluation
        line) goes through `_one`, the line-at-a-time reading whose errors carry the line
        number. One span's matches are held at a time."""
        phases, names, scores = self.phases, self.fast_names, self.scores
        line, counted = self.line, 0  # the line number at offset ``counted``
        for start, stop in _quoted_windows(data):
            line += _newlines(data, counted, start)
            span = bytes(data[start:stop])  # its newlines are counted from one match to the next
            counted = start
            first = _FIRST_LINE.match(data, start, stop)
            for m in ([first] if first is not None else []) + list(
                    _LINE.finditer(data, start, stop)):
                at = m.start()
                line += span.count(b"\n", counted - start, at - start)
                counted = at
                if m.re is _LINE:
                    line, counted = line + 1, at + 1
                kind = m.lastgroup
                if kind == "new":
                    listing, raw, top = m.group(_NEW_LIST, _NEW_RAW, _NEW_MAX)
                elif kind == "old":
                    (listing, raw), top = m.group(_OLD_LIST, _OLD_RAW), None
                else:
                    listing = None
                if listing is None:
                    self._one(data, m, line)
                    continue
                if not phases or not _quoted(data, at, m.end()):
                    continue  # evaluations before the first phase belong to no phase
                task = names.get(listing)
                if task is None:
                    task = names[listing] = _task_name(listing.decode(), self.names, self.file,
                                                       line)
                score = scores.get((raw, top))
                if score is None:
                    score = scores[raw, top] = self._score(raw, top, line)
                evals = phases[-1].evals
                evals.pop(task, None)
                evals[task] = Evaluation(task, score[0], score[1], line)
            line += span.count(b"\n", counted - start)
            counted = stop
        self.line = line + _newlines(data, counted, len(data))

    def _score(self, raw: bytes, top: bytes | None, line: int) -> tuple[float, float]:
        """(raw, max) read from an evaluation line's numbers (max None: old-style, out of 4),
        or the error for this line."""
        value = _number(raw.decode(), self.file, line)
        most = OLD_STYLE_MAX if top is None else _number(top.decode(), self.file, line)
        _check_score(value, most, self.allow_over_max, self.file, line)
        return value, most

    def _one(self, data: "bytes | mmap.mmap", found: re.Match, line: int) -> None:
        """Read one line the bulk pattern found but did not read whole, line ``line``."""
        file, phases = self.file, self.phases
        start = found.start() + (found.re is _LINE)
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        m = _OPENING.match(data, start, end)
        assert m is not None, "the bulk pattern opens with _OPENING"
        if not _quoted(data, start, end):
            return  # not a quoted line: see `_quoted_windows`
        try:
            rest = bytes(data[m.end():end]).decode("utf-8").rstrip()
        except UnicodeDecodeError:
            raise MetricsError("binary file (not UTF-8 text), not a training log", file,
                               line, exit_code=EXIT_USAGE) from None
        if m.lastgroup == "phase":
            phases.append(Phase(len(phases) + 1, line, _train_tasks(rest, file, line)))
            return
        if not phases:
            return  # evaluations before the first phase belong to no phase
        if m.lastgroup == "new":
            shape = _NEW_REST.match(rest)
            if shape is None:
                raise MetricsError("evaluation line not in the form '[task N] sub_goal "
                                   "sequence is [...] task GC : P% (RAW / MAX)'", file, line)
            task = _task_name(shape.group(1), self.names, file, line)
            raw = _number(shape.group(2), file, line)
            top = _number(shape.group(3), file, line)
        else:
            shape = _OLD_REST.match(rest)
            if shape is None:
                raise MetricsError("evaluation line not in the form '[N]skill is  [...] "
                                   "rew : SCORE'", file, line)
            task = _task_name(shape.group(1), self.names, file, line)
            raw, top = _number(shape.group(2), file, line), OLD_STYLE_MAX
        _check_score(raw, top, self.allow_over_max, file, line)
        evals = phases[-1].evals
        evals.pop(task, None)
        evals[task] = Evaluation(task, raw, top, line)


# The bulk pattern: `_OPENING` at a line start, then (optionally) the rest of a well-formed
# evaluation line as `_NEW_REST` / `_OLD_REST` read it. It reads only lines of tabs and printable
# ASCII, where its classes and the text patterns' agree byte for byte (``.`` = _PRINT, ``\S`` =
# _SOLID, ``[^(]`` = _NO_PAREN), so the groups it finds are the ones `_one` would; its trailing
# ``[ \t]*\r?`` stands for `_one`'s ``rstrip``. Anything else on such a line leaves the rest
# unread and `_one` reads it (or words the error).
_PRINT, _SOLID, _NO_PAREN = rb"[\t\x20-\x7e]", rb"[\x21-\x7e]", rb"[\t\x20-\x27\x29-\x7e]"
_EOL = rb"[ \t]*\r?(?=\n|\Z)"
_BODY = (
    rb"[ \t]*(?:(?P<phase>\{'data_name':)"
    rb"|(?P<new>\[task[ \t]+\d+\][ \t]*sub_goal sequence is(?:[ \t]*(\[" + _PRINT + rb"*\])"
    rb"[ \t]+task GC[ \t]*:" + _NO_PAREN + rb"*\([ \t]*(" + _SOLID + rb"+?)[ \t]*/[ \t]*("
    + _SOLID + rb"+?)[ \t]*\)" + _EOL + rb")?)"
    rb"|(?P<old>\[\d+\]skill is(?:[ \t]+(\[" + _PRINT + rb"*\])[ \t]+rew[ \t]*:[ \t]*("
    + _SOLID + rb"+)" + _EOL + rb")?))")
# a leading newline lets the regex engine jump from newline to newline (a literal prefix);
# the piece's first line has none before it
_LINE = re.compile(rb"\n" + _BODY)
_FIRST_LINE = re.compile(_BODY)
_NEW_LIST, _NEW_RAW, _NEW_MAX = 3, 4, 5
_OLD_LIST, _OLD_RAW = 7, 8
WINDOW = 1 << 12
SHORT = 1 << 16  # bytes up to which a copy and bytes.count beat a numpy call


def _quoted_windows(data: "bytes | mmap.mmap") -> Iterator[tuple[int, int]]:
    """Spans of whole lines of ``data`` that hold every line with a quote (``'`` or ``"``).

    Every line the reader wants quotes a name (the config dict, the sub-goal list: a list of
    strings cannot be written without one) and loss lines usually don't, so in a log of sparse
    evaluations the pattern need not stop at every newline: ``find`` jumps (at memchr speed) to
    the next quote, and the span from its line to the first line end ``WINDOW`` bytes on is
    handed to the pattern; the evaluations of one block come together, and a log dense in
    evaluations becomes one span after another. A line is read only if it holds a quote
    (`_quoted`), wherever the spans fall, so a line's reading never depends on where a piece of
    a growing log was cut."""
    size, pos = len(data), 0
    single = double = -1  # the next quote of each kind at or after pos (size: none left)
    while pos < size:
        if single < pos:
            single = data.find(b"'", pos)
            single = size if single < 0 else single
        if double < pos:
            double = data.find(b'"', pos)
            double = size if double < 0 else double
        quote = min(single, double)
        if quote >= size:
            return
        start = data.rfind(b"\n", 0, quote) + 1
        stop = data.find(b"\n", max(quote, start + WINDOW))
        stop = size if stop < 0 else stop
        yield start, stop
        pos = stop + 1


def _quoted(data: "bytes | mmap.mmap", start: int, end: int) -> bool:
    """Whether ``data[start:end]`` holds a quote (see `_quoted_windows`)."""
    return data.find(b"'", start, end) >= 0 or data.find(b'"', start, end) >= 0


def _newlines(data: "bytes | mmap.mmap", start: int, stop: int) -> int:
    """Newlines in ``data[start:stop]``: a short stretch copied and counted, a long one counted
    by numpy without a copy (the temporary view is released at once, so a memory map can still
    be closed if an error follows)."""
    if stop - start <= SHORT:
        return bytes(data[start:stop]).count(b"\n") if stop > start else 0
    return int(np.count_nonzero(np.frombuffer(data, np.uint8, stop - start, start) == 10))


def _normalise(data: "bytes | mmap.mmap", file: str) -> "bytes | mmap.mmap":
    """Refuse a binary file; turn old-Mac lone ``\\r`` line ends into ``\\n`` (a ``\\r``
    before ``\\n`` is stripped with the line's trailing blanks)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise MetricsError("binary file (a NUL byte), not a training log", file,
                           _newlines(data, 0, nul) + 1, exit_code=EXIT_USAGE)
    if data.find(b"\r") >= 0:
        text = bytes(data)
        if text.count(b"\r") != text.count(b"\r\n"):
            return text.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data


def check_yields(experiment: Experiment) -> None:
    """A log that would give no BWT/FWT/AUC says why instead of reporting 0.00 %."""
    phases, kept = experiment.all_phases, experiment.phases
    if not kept:
        raise MetricsError(f"no metric: {len(phases)} phase(s) but no evaluation line after any "
                           "of them", experiment.file, phases[0].line)
    if not any(t in p.evals for p in kept for t in p.train):
        p = kept[0]
        raise MetricsError(
            f"no metric: no phase evaluates a task it trains (phase {p.number} trains "
            f"{', '.join(p.train)}; evaluates {', '.join(p.evals)})", experiment.file, p.line)


def _train_tasks(rest: str, file: str, line: int) -> list[str]:
    m = _DATA_NAME.match(rest)
    if m is None:
        raise MetricsError("data_name is not a quoted string", file, line)
    value = ast.literal_eval(m.group(1))
    tasks = [item.strip().replace(" ", "-") for item in value.split(",")]
    tasks = list(dict.fromkeys(t for t in tasks if t))
    if not tasks:
        raise MetricsError("data_name names no task", file, line)
    return tasks


def _task_name(listing: str, cache: dict[str, str], file: str, line: int) -> str:
    """``['microwave', 'bottom burner']`` -> ``microwave-bottom-burner`` (memoised: a log
    repeats the same few lists thousands of times)."""
    name = cache.get(listing)
    if name is not None:
        return name
    try:
        items = ast.literal_eval(listing)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        items = None
    if not isinstance(items, (list, tuple)) or not items or not all(
            isinstance(i, str) for i in items):
        raise MetricsError(f"cannot read the sub-goal list {listing!r}", file, line)
    name = "-".join(i.strip().replace(" ", "-") for i in items)
    cache[listing] = name
    return name


def _number(text: str, file: str, line: int) -> float:
    if not _IS_NUMBER.match(text):
        raise MetricsError(f"unreadable number {text!r}", file, line)
    return float(text)


def _check_score(raw: float, top: float, allow_over_max: bool, file: str, line: int) -> None:
    if not (math.isfinite(raw) and math.isfinite(top)):
        raise MetricsError(f"unreadable number (not finite: {raw} / {top})", file, line)
    if top == 0:
        raise MetricsError("max score of 0 (the score cannot be normalised)", file, line)
    if not abs(raw / top) <= LARGEST:
        raise MetricsError(f"score {raw:g} / {top:g} {too_large(f'{raw / top:g}')}", file, line)
    if top < 0 or raw < 0:
        raise MetricsError(f"negative score ({raw:g} / {top:g})", file, line)
    if raw > top and not allow_over_max:
        raise MetricsError(f"score {raw:g} is over its max {top:g}", file, line)


# --- the reference script's reading (compat) ----------------------------------------------------

_COMPAT_NEW = re.compile(r"\[task\s+(\d+)\].*sub_goal sequence is (.*)\s+task GC :\s+([\d.]+)%"
                         r" \(([\d.]+)\s*/\s*([\d.]+)\)")


def parse_compat(data: bytes, file: str) -> list[tuple[list[str], dict[str, tuple[float, float]]]]:
    """What the reference script reads from the same bytes: ``(train names, name -> (raw,
    max))`` per kept phase. Its quirks are kept on purpose: lines are split on single spaces; a
    phase line without a ``'data_paths':`` token keeps only the first word of ``data_name``;
    the old-style name keeps the tokens up to ``rew`` (so ``...-rew``); a new-style number
    ``float`` cannot read becomes 0.0 out of 4.0; an old-style one drops the line."""
    text = decode(data, file)
    phases: list[tuple[list[str], dict[str, tuple[float, float]]]] = []
    for number, raw_line in enumerate(text.split("\n"), start=1):
        stripped = raw_line.strip()
        if not stripped:
            continue
        tokens = stripped.split(" ")
        joined = " ".join(tokens)
        if tokens[0].startswith("{'data_name':"):
            if "'data_paths':" in tokens:
                names = "-".join(tokens[1:tokens.index("'data_paths':")]).replace("'", "")
            elif len(tokens) > 1:
                names = tokens[1].replace("'", "")
            else:
                raise MetricsError("compat: the reference script stops on this phase line "
                                   "(nothing after {'data_name':)", file, number)
            phases.append(([n for n in names.strip(",").split(",") if n], {}))
            continue
        if not phases:
            continue
        evals = phases[-1][1]
        if "skill" in tokens[0] and len(tokens) > 2 and tokens[1] == "is":
            try:
                value = float(tokens[-1])
            except ValueError:
                continue
            chunk = [t.strip(",'[]") for t in tokens[3:-2] if t]
            evals["-".join(chunk)] = (value, OLD_STYLE_MAX)
        elif "[task" in tokens[0] and "sub_goal" in joined and "task GC" in joined:
            m = _COMPAT_NEW.search(joined)
            if m is None:
                continue
            try:
                raw, top = float(m.group(4)), float(m.group(5))
            except ValueError:
                raw, top = 0.0, OLD_STYLE_MAX
            if top == 0:
                raise MetricsError("max score of 0 (the reference script stops here with a "
                                   "division by zero)", file, number)
            goals = m.group(2).strip().strip("[] ").replace("'", "").replace(",", "")
            evals["-".join(goals.replace("  ", " ").split())] = (raw, top)
    return [p for p in phases if p[1]]


# --- the pipeline's shape -----------------------------------------------------------------------

def _frame(experiments: list[Experiment]) -> "pd.DataFrame":
    import pandas as pd  # noqa: PLC0415 - lazy: start-up, pandas loads only when used

    rows: list[dict] = []
    for index, experiment in enumerate(experiments):
        block = 0
        for phase in experiment.phases:
            for task in phase.train:
                rows.append(_row(experiment, index, block, task, "train", phase, math.nan,
                                 phase.line))
                block += 1
            for task, ev in phase.evals.items():
                rows.append(_row(experiment, index, block, task, "test", phase, ev.score,
                                 ev.line))
                block += 1
        first = next(i for i, r in enumerate(rows) if r["file"] == index)
        rows[first]["params"] = json.dumps({
            "iscil_experiment": index, "iscil_experiments": len(experiments),
            "iscil_compat": experiment.compat}, separators=(",", ":"))
    frame = pd.DataFrame(rows)
    frame["episode"] = frame.groupby("run", sort=False).cumcount()
    return frame


def runs_of(experiments: list[Experiment]) -> list[RunData] | None:
    """The runs `align` would make of `_frame` (one block per row: the block number changes on
    every row; one run per experiment name, in order), built without pandas; None when two
    experiments share a name or one has no kept phase (`align` then works from ``frame``)."""
    names = [e.name for e in experiments]
    if len(set(names)) != len(names) or not all(e.phases for e in experiments):
        return None
    runs = []
    for index, experiment in enumerate(experiments):
        rows = [_row(experiment, index, 0, task, kind, phase, perf, 0)
                for phase in experiment.phases
                for task, kind, perf in [(t, "train", math.nan) for t in phase.train]
                + [(t, "test", ev.score) for t, ev in phase.evals.items()]]
        rows[0]["params"] = json.dumps({
            "iscil_experiment": index, "iscil_experiments": len(experiments),
            "iscil_compat": experiment.compat}, separators=(",", ":"))
        n = len(rows)
        starts = np.arange(n)
        strings = {c: np.array([str(r[c]) for r in rows], dtype=object)
                   for c in ("task", "kind", "subtype", "params", "phase")}
        blocks = Columns({
            "block": np.arange(n), "phase_number": np.array([_phase_number(p) for p in
                                                             strings["phase"]]),
            "learning": strings["kind"] == "train", "start": starts, "stop": starts + 1,
            "count": np.ones(n, dtype=np.int64), "partial": np.zeros(n, dtype=bool), **strings,
        }, BLOCK_COLUMNS)
        runs.append(RunData(run=experiment.name, perf=np.array([r["perf"] for r in rows],
                                                                dtype=np.float64),
                            exp=np.arange(n, dtype=float), blocks=blocks))
    return runs


def _phase_number(label: str) -> int:
    head = label.split(".", 1)[0]
    return int(head) if head.isdigit() else -1


def _row(experiment: Experiment, index: int, block: int, task: str, kind: str, phase: Phase,
         perf: float, line: int) -> dict:
    return {"run": experiment.name, "worker": "0", "task": task, "kind": kind,
            "phase": f"{phase.number}.{kind}", "block_num": block, "subtype": "wake",
            "params": "", "perf": perf, "row": line, "file": index}


