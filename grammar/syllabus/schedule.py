"""The schedule: the syllabus flattened into blocks with episode ranges.

Block i covers episodes ``[start_i, start_i + count_i)`` of one worker, belongs to one phase,
one task and one parameter set, and has learning on, off or unspecified. Learning comes from
the phase's ``enable_updates`` when it has one, else from the ``$info`` ``disable_updates``
state in force; it is never guessed from the phase kind, because engines do not guess either.
"""

from __future__ import annotations

from sylla.grammar.syllabus.model import Block, Info, PhaseMark, Syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

if TYPE_CHECKING:
    from typing import Any, Mapping


#: the most episodes a ``count`` holds, and a schedule in all, before sylla calls it absurd: a
#: thousand times the largest block of a published syllabus (5,000 episodes) times two hundred,
#: and a hundred times the longest run the metrics are measured on (10 million episodes); at a
#: thousand episodes a second an agent would run for twelve days. Every consumer that makes
#: per-episode data from a schedule (simulate, metrics --syllabus, watch) refuses a longer one
#: with its count and line, and the linter warns about such a count (H506), instead of trying to
#: allocate it (a count of 10^12 was 7 TiB, issue 38)
MAX_EPISODES = 10**9


def absurd_block(model: Syllabus) -> tuple[Block, int] | None:
    """The first block whose count is more than ``MAX_EPISODES``, or at which the schedule's
    running total passes it, and that total; None when the schedule is of a sensible length."""
    total = 0
    for block in model.blocks:
        total += block.count
        if block.count > MAX_EPISODES or total > MAX_EPISODES:
            return block, total
    return None


def count_text(n: int) -> str:
    """A count for a message: as written when short, else its first digits and its length
    (a count may have thousands of digits)."""
    digits = str(n)
    return digits if len(digits) <= 24 else f"{digits[:6]}… ({len(digits):,} digits)"


@record(frozen=True, slots=True)
class ScheduledBlock:
    """One block of one worker's schedule.

    ``count`` is this worker's share (engines give ``count // K`` to each of K workers and the
    remainder to the first ones), so it may be 0 for a short block on a late worker; such
    blocks are kept so that block ``ordinal`` numbers agree across workers.
    """

    ordinal: int
    block: Block
    phase: PhaseMark | None
    start: int
    end: int
    learning: bool | None
    worker: int = 0

    @property
    def count(self) -> int:
        return self.end - self.start

    @property
    def task(self) -> str:
        return self.block.task

    @property
    def params(self) -> Mapping[str, Any]:  # read-only
        return self.block.params

    @property
    def phase_label(self) -> str | None:
        return self.phase.label if self.phase else None

    @property
    def kind(self) -> str:
        """``"train"`` or ``"test"``: the learning flag when the syllabus sets one, else the
        phase's kind, else train. What the aligner lays over a log (``metrics.scheduled``) and
        whether ``sylla run`` lets the agent learn."""
        if self.learning is not None:
            return "train" if self.learning else "test"
        if self.phase is not None and self.phase.kind in ("train", "test"):
            return self.phase.kind
        return "train"


@record(frozen=True, slots=True)
class PhaseRun:
    """A phase annotation with the blocks that follow it up to the next one."""

    phase: PhaseMark
    blocks: tuple[ScheduledBlock, ...]

    @property
    def start(self) -> int:
        return self.blocks[0].start if self.blocks else -1

    @property
    def end(self) -> int:
        return self.blocks[-1].end if self.blocks else -1

    @property
    def episodes(self) -> int:
        return sum(b.count for b in self.blocks)


@record(frozen=True, slots=True)
class Schedule:
    """One worker's schedule. ``unphased`` holds blocks that come before any ``$phase``."""

    blocks: tuple[ScheduledBlock, ...]
    phases: tuple[PhaseRun, ...]
    unphased: tuple[ScheduledBlock, ...]
    episodes: int
    worker: int = 0
    workers: int = 1

    def block_at(self, episode: int) -> ScheduledBlock | None:
        """The block that contains an episode index (binary search)."""
        lo, hi = 0, len(self.blocks)
        while lo < hi:
            mid = (lo + hi) // 2
            b = self.blocks[mid]
            if episode < b.start:
                hi = mid
            elif episode >= b.end:
                lo = mid + 1
            else:
                return b if b.count else None
        return None


def share(count: int, workers: int, worker: int) -> int:
    """A worker's share of ``count`` episodes: ``count // K``, plus one for the first
    ``count % K`` workers."""
    base, extra = divmod(count, workers)
    return base + (1 if worker < extra else 0)


def schedule(model: Syllabus, workers: int = 1, worker: int = 0) -> Schedule:
    """Flatten a syllabus into the schedule of one worker (of ``workers`` in parallel)."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if not 0 <= worker < workers:
        raise ValueError(f"worker must be in [0, {workers})")
    blocks: list[ScheduledBlock] = []
    runs: list[tuple[PhaseMark, list[ScheduledBlock]]] = []
    unphased: list[ScheduledBlock] = []
    phase: PhaseMark | None = None
    info_learning: bool | None = None
    episode = 0
    for instruction in model.instructions:
        if isinstance(instruction, PhaseMark):
            phase = instruction
            runs.append((phase, []))
        elif isinstance(instruction, Info):
            if instruction.resets:
                info_learning = None
            elif instruction.disable_updates is not None:
                info_learning = not instruction.disable_updates
        elif isinstance(instruction, Block):
            if phase is not None and phase.enable_updates is not None:
                learning: bool | None = phase.enable_updates
            else:
                learning = info_learning
            n = instruction.count if workers == 1 else share(instruction.count, workers, worker)
            # positional: 7,000 blocks at 500 KB, and keywords cost a fifth of the loop
            scheduled = ScheduledBlock(len(blocks), instruction, phase, episode, episode + n, learning, worker)
            episode += n
            blocks.append(scheduled)
            if phase is None:
                unphased.append(scheduled)
            else:
                runs[-1][1].append(scheduled)
    return Schedule(
        blocks=tuple(blocks),
        phases=tuple(PhaseRun(p, tuple(bs)) for p, bs in runs),
        unphased=tuple(unphased),
        episodes=episode,
        worker=worker,
        workers=workers,
    )


def schedules(model: Syllabus, workers: int) -> tuple[Schedule, ...]:
    """The schedules of all ``workers`` workers."""
    return tuple(schedule(model, workers, w) for w in range(workers))
