"""Generated syllabi of any size, in the shape published syllabi have, for benchmarks and tests.

Each round is a phase pair: a train phase of repeated episodes whose paddle width varies, then
a test phase that turns learning off with an ``$info`` pair and tests a task for 10 episodes.
One instruction per line, four-space indent, so tools can find and edit a line by its text; no
two adjacent blocks are identical, so a generated syllabus lints as cleanly as a hand-written one.
"""

from __future__ import annotations

import random

TASKS = ("Pong", "Breakout", "Freeway", "SpaceInvaders", "Asteroids")


def phase_pairs(
    *,
    instructions: int | None = None,
    min_bytes: int | None = None,
    tasks: tuple[str, ...] = ("Pong",),
    train_blocks: int = 6,
    seed: int = 1,
) -> str:
    """A syllabus of exactly ``instructions`` instructions, or of at least ``min_bytes`` bytes."""
    if (instructions is None) == (min_bytes is None):
        raise ValueError("give instructions or min_bytes")
    rng = random.Random(seed)
    lines: list[str] = []
    size = 0
    phase = 0
    while (instructions is not None and len(lines) < instructions) or (min_bytes is not None and size < min_bytes):
        phase += 1
        chunk = [f'{{"$phase": "{phase}.train"}}']
        previous = None
        for _ in range(train_blocks):
            while True:  # same task and params side by side is a finding (H505)
                block = (rng.choice(tasks), rng.choice((0.15, 0.2, 0.25)))
                if block != previous:
                    break
            count = rng.choice((100, 1000, 5000))
            chunk.append('{"$repeat": {"$episode": "%s", "bot/paddle/width": %s}, "count": %d}' % (*block, count))
            previous = block
        chunk += [
            f'{{"$phase": "{phase}.test"}}',
            '{"$info": {"disable_updates": true}}',
            '{"$repeat": {"$episode": "%s"}, "count": 10}' % rng.choice(tasks),
            '{"$info": {}}',
        ]
        lines += chunk
        size += sum(len(line) + 6 for line in chunk)
    if instructions is not None:
        del lines[instructions:]
    body = ",\n    ".join(lines)
    return (
        '{\n  "name": "generated", "author": "sylla", "contains": "episodes",\n'
        f'  "default_params": {{}},\n  "instructions": [\n    {body}\n  ]\n}}\n'
    )
