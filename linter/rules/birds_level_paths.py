"""B835 windows-level-path."""

from __future__ import annotations

import re
from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc

_WINDOWS_ABS = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


class WindowsLevelPath(BirdsRule):
    code, name, severity = "B835", "windows-level-path", Severity.INFO
    __doc__ = birds_doc(
        "A `level_path` is an absolute Windows path, which breaks on another machine.",
        "`level_path` values starting with a drive letter (`C:\\`) or a UNC share (`\\\\server`).",
        "The generator writes the absolute paths of the machine it ran on; copied to another machine "
        "or to Linux, the game cannot find the levels.",
        '<game_levels level_path="C:\\Users\\me\\ScienceBirds\\Levels\\novelty_level_1\\type1\\Levels\\1.xml" />',
        '<game_levels level_path="Levels/novelty_level_1/type1/Levels/1.xml" />',
        "Regenerate config.xml on the machine that runs the evaluation.",
        "the generated file (config.xml in StreamingAssets)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        paths = [
            level.level_path
            for t in ctx.generated.trials for s in t.sets for level in s.levels
            if level.level_path is not None and _WINDOWS_ABS.match(level.level_path.text)
        ]
        if paths:
            first = paths[0]
            more = f" ({len(paths) - 1} more level paths like it)" if len(paths) > 1 else ""
            # one finding says it: every path in a generated file is alike
            yield ctx.finding(self, f'level_path "{first.text}" is an absolute Windows path; it breaks on another machine{more}', first.span)
