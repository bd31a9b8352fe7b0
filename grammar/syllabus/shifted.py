"""The instructions of an incrementally parsed version, each moved through the edit when read.

After a keystroke in a 500 KB syllabus every instruction after the edit is the old one with
its span moved by the edit's length (and, when instructions were added or removed, its index
and path). Copying those 10,000 immutable records took 30-40 ms per keystroke, before the
language server could write the outline the editor was waiting for, which reads only the
instructions of the phases the edit touched and a few boundaries. ``Shifted`` holds instead
a few runs of old instructions, each with how far it moved, and makes an instruction's copy
the first time it is read (the outline's few here, the lint's all of them later, off the
editor's path). The model stays a plain sequence of plain instructions: nothing that reads it
knows about runs.

A run's copies read their inner positions (a phase label's span, a parameter's) from the
source map of the version that moved them last; an unmoved run hands out the old objects,
which read them from the map they were built with (the same text at the same place). The
maps a sequence may read from are counted per run (``sources``) so that the incremental
parse can move all of them to the newest map (``rebase``, lazily too) before old versions'
texts pile up.
"""

from __future__ import annotations

import operator
import threading
from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Iterator, Sequence, overload

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Instruction
from sylla.kit.record import field_names

if TYPE_CHECKING:
    from sylla.grammar.syllabus.source_map import SourceMap

#: runs a sequence may hold before it is copied flat (many edits with no lint between them)
MAX_RUNS = 32
_INDEX = 0  # every instruction class has ``index`` first
#: instructions made per hold of the lock when a sequence is read whole (about a millisecond)
_BLOCK = 256


class _Run:
    """``base[lo : lo + stop - start]`` at ``[start, stop)`` of the sequence, spans moved by
    ``delta`` and indices by ``shift``, reading inner positions from ``source`` (None: handed
    out as they are, which needs ``delta == shift == 0``)."""

    __slots__ = ("base", "lo", "start", "stop", "delta", "shift", "source", "sources")

    def __init__(
        self, base: Sequence[Instruction], lo: int, start: int, stop: int, delta: int, shift: int,
        source: "SourceMap | None", sources: frozenset[Any],
    ) -> None:
        self.base = base
        self.lo = lo
        self.start = start
        self.stop = stop
        self.delta = delta
        self.shift = shift
        self.source = source
        #: the source maps this run's instructions read from (may count a few too many)
        self.sources = sources

    def cut(self, start: int, stop: int, offset: int) -> "_Run":
        """The part ``[start, stop)`` of this run, ``offset`` places further on."""
        return _Run(self.base, self.lo + start - self.start, start + offset, stop + offset,
                    self.delta, self.shift, self.source, self.sources)

    def moved(self, delta: int, shift: int, source: "SourceMap", rebase: bool) -> "_Run":
        """This run moved ``delta`` characters and ``shift`` places on; moved (or ``rebase``)
        its copies read from ``source``."""
        if not (delta or shift or rebase):
            return self
        return _Run(self.base, self.lo, self.start, self.stop, self.delta + delta, self.shift + shift, source, frozenset((source,)))


class Shifted(Sequence[Instruction]):
    """An immutable sequence of instructions made of runs of older ones (see the module)."""

    __slots__ = ("_runs", "_starts", "_memo", "_missing", "_path", "_lock", "sources")

    def __init__(self, runs: list[_Run], path: tuple[str | int, ...]) -> None:
        self._runs = runs
        self._starts = [r.start for r in runs]
        n = runs[-1].stop if runs else 0
        self._memo: list[Instruction | None] = [None] * n
        self._missing = n
        #: the instruction list's own JSON path (``("instructions",)``, or ``()`` for a bare list)
        self._path = path
        self._lock = threading.Lock()
        self.sources: frozenset[Any] = frozenset().union(*(r.sources for r in runs))

    @classmethod
    def spliced(
        cls, old: Sequence[Instruction], a: int, b: int, fresh: Sequence[Instruction], delta: int, shift: int,
        source: "SourceMap", path: tuple[str | int, ...], old_source: "SourceMap | None", max_sources: int,
    ) -> "Shifted":
        """``old[:a] + fresh + old[b:]``, ``old[b:]`` moved ``delta`` characters and ``shift``
        places on (``shift`` is ``len(fresh) - (b - a)``), its copies reading from ``source``,
        as are ``fresh``'s. ``old_source``: the map a plain tuple's instructions read from
        (a full parse's). All runs move to ``source`` when more than ``max_sources`` maps
        would be read from."""
        runs = _runs_of(old, old_source)
        out = [r.cut(r.start, min(r.stop, a), 0) for r in runs if r.start < a]
        if fresh:
            out.append(_Run(tuple(fresh), 0, a, a + len(fresh), 0, 0, None, frozenset((source,))))
        offset = len(fresh) - (b - a)
        out.extend(r.cut(max(r.start, b), r.stop, offset).moved(delta, shift, source, False) for r in runs if r.stop > b)
        if len(frozenset().union(*(r.sources for r in out))) > max_sources:
            out = [r.moved(0, 0, source, True) for r in out]
        if len(out) > MAX_RUNS:
            flat = cls(out, path)
            out = [_Run(tuple(flat), 0, 0, len(flat), 0, 0, None, flat.sources)]
        return cls(out, path)

    def __len__(self) -> int:
        return len(self._memo)

    @overload
    def __getitem__(self, index: int) -> Instruction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Instruction, ...]: ...

    def __getitem__(self, index: int | slice) -> Instruction | tuple[Instruction, ...]:
        if isinstance(index, slice):
            if self._missing:
                start, stop, step = index.indices(len(self._memo))
                if step != 1:
                    return tuple(self[i] for i in range(start, stop, step))
                self._make(start, stop)
            return tuple(self._memo[index])  # type: ignore[arg-type]  # made: no None left
        found = self._memo[index]
        if found is not None:
            return found
        i = index + len(self._memo) if index < 0 else index
        with self._lock:
            found = self._memo[i]
            if found is None:
                run = self._runs[bisect_right(self._starts, i) - 1]
                found = self._memo[i] = _made(run, i, self._path)
                self._missing -= 1
        return found

    def __iter__(self) -> Iterator[Instruction]:
        if self._missing:
            self._fill()
        return iter(self._memo)  # type: ignore[arg-type]  # filled: no None left

    def __contains__(self, value: object) -> bool:
        return value in tuple(self)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        return tuple(self).index(value, start, len(self) if stop is None else stop)

    def count(self, value: Any) -> int:
        return tuple(self).count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Shifted, tuple)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Shifted({tuple(self)!r})"

    def classes(self) -> list[type]:
        """Each instruction's class, without making a single copy (a copy has its original's)."""
        out: list[type] = []
        for r in self._runs:
            out.extend(map(type, r.base[r.lo : r.lo + r.stop - r.start]))
        return out

    def _fill(self) -> None:
        """Make every instruction not read yet (see ``_make``)."""
        self._make(0, len(self._memo))

    def _make(self, first: int, stop: int) -> None:
        """Make the instructions ``[first, stop)`` not read yet, one run at a time (one loop per
        run, with the class layout looked up once per class: a call per instruction doubled
        the cost), and ``_BLOCK`` instructions per hold of the lock: the lint reads a whole
        sequence (20-40 ms at 500 KB) while a request of the editor's may read one of them."""
        memo, path, lock = self._memo, self._path, self._lock
        for run in self._runs:
            begin, end = max(run.start, first), min(run.stop, stop)
            if begin >= end:
                continue
            base, at, source = run.base, run.lo - run.start, run.source
            if source is None:  # the very objects: whatever was read already is one of them
                with lock:
                    self._missing -= memo[begin:end].count(None)
                    memo[begin:end] = base[begin + at : end + at]
                continue
            delta, shift = run.delta, run.shift
            layouts: dict[type, tuple[Any, int, int, int]] = {}
            for block in range(begin, end, _BLOCK):
                with lock:
                    made = 0
                    for i in range(block, min(block + _BLOCK, end)):
                        if memo[i] is not None:
                            continue
                        made += 1
                        instruction = base[i + at]
                        cls = instruction.__class__
                        layout = layouts.get(cls)
                        if layout is None:
                            layout = layouts[cls] = _layout(cls)
                        get, span_at, source_at, path_at = layout
                        if source_at < 0 and not delta and not shift:
                            memo[i] = instruction
                            continue
                        values = list(get(instruction))
                        if delta:
                            span = values[span_at]
                            values[span_at] = Span(span.start + delta, span.end + delta)
                        if shift:
                            values[_INDEX] = values[_INDEX] + shift
                            values[path_at] = path + (values[_INDEX],)
                        if source_at >= 0:
                            values[source_at] = source
                        memo[i] = cls(*values)
                    self._missing -= made


def classes(instructions: Sequence[Instruction]) -> list[type]:
    """Each instruction's class (``Shifted.classes`` for a shifted sequence: nothing copied)."""
    if isinstance(instructions, Shifted):
        return instructions.classes()
    return list(map(type, instructions))


def _runs_of(old: Sequence[Instruction], old_source: "SourceMap | None") -> list[_Run]:
    if isinstance(old, Shifted):
        if not old._missing:  # read whole (the lint): one run of its copies
            return [_Run(tuple(old._memo), 0, 0, len(old), 0, 0, None, old.sources)]  # type: ignore[arg-type]  # filled: no None left
        return old._runs
    return [_Run(old, 0, 0, len(old), 0, 0, None, frozenset((old_source,)))] if old else []


def _made(run: _Run, i: int, path: tuple[str | int, ...]) -> Instruction:
    """Instruction ``i`` of the sequence, from ``run``."""
    instruction = run.base[run.lo + i - run.start]
    source = run.source
    if source is None:
        return instruction
    get, span_at, source_at, path_at = _layout(instruction.__class__)
    if source_at < 0 and not run.delta and not run.shift:
        return instruction
    values = list(get(instruction))
    if run.delta:
        span = values[span_at]
        values[span_at] = Span(span.start + run.delta, span.end + run.delta)
    if run.shift:
        values[_INDEX] = values[_INDEX] + run.shift
        values[path_at] = path + (values[_INDEX],)
    if source_at >= 0:
        values[source_at] = source
    return instruction.__class__(*values)


_LAYOUTS: dict[type, tuple[Any, int, int, int]] = {}


def _layout(cls: type) -> tuple[Any, int, int, int]:
    """A getter of all of a model class' fields in constructor order, and where ``span``,
    ``source`` (-1: none) and ``path`` are in it."""
    found = _LAYOUTS.get(cls)
    if found is None:
        names = list(field_names(cls))
        assert names[_INDEX] == "index"
        found = _LAYOUTS[cls] = (
            operator.attrgetter(*names), names.index("span"), names.index("source") if "source" in names else -1,
            names.index("path"),
        )
    return found
