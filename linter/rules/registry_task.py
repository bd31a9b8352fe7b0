"""R701 unknown-task."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class UnknownTask(Rule):
    __doc__ = rule_doc(
        "A block names a task the task registry does not list.",
        "Only with a `registry` in the config (or `--registry`): a task registry file, or "
        '`"gymnasium"` for the tasks `sylla run` can make (Gymnasium ids, the L2M `$minigridkit:` '
        "names, the config's `tasks` and `sylla.tasks` entry points). Reported once per task name, "
        'at its first block, with a "did you mean".',
        '{"$repeat": {"$episode": "Breakuot"}, "count": 5000}',
        '{"$repeat": {"$episode": "Breakout"}, "count": 5000}',
        "Correct the task name, or add the task to the registry.",
        why="**Why it matters.** An unknown task fails when the engine reaches it, possibly hours "
        "into a run; a misspelt task in a test phase silently becomes a zero-shot test.",
    )
    code, name, severity = "R701", "unknown-task", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        registry = ctx.registry
        if registry is None:
            return
        seen: set[tuple[str | None, str]] = set()
        for b in ctx.model.blocks:
            if (b.module, b.task) in seen or registry.lookup(b.task, b.module) is not None:
                continue
            seen.add((b.module, b.task))
            if b.module is not None and registry.gymnasium:  # the kit decides, as in sylla run
                guess = registry.guess(b.task, b.module)
                hint = f' (did you mean "{guess}"?)' if guess else ""
                yield ctx.finding(self, f'unknown task "${b.module}:{b.task}"{hint}', b.task_span)
                continue
            yield ctx.finding(self, f'unknown task "{b.task}"{did_you_mean(b.task, registry.names())}', b.task_span)
