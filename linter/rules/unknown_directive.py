"""N603 unknown-directive."""

from __future__ import annotations

from sylla.grammar.core import Diagnostic, Severity
from sylla.grammar.syllabus.model import Syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Any, Iterator

DIRECTIVES = ("$phase", "$repeat", "$episode", "$dataset", "$info")


def _unknown_keys(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    """(path of the object, key) for each unknown ``$`` key in an instruction and its leaf."""
    if not isinstance(value, dict):
        return
    for key in value:
        if key.startswith("$") and key not in DIRECTIVES:
            yield path, key
    leaf = value.get("$repeat")
    if isinstance(leaf, dict):
        yield from _unknown_keys(leaf, path + ("$repeat",))


def _instruction_path(model: Syllabus, diag_path: tuple) -> tuple | None:
    n = 1 if model.form == "array" else 2
    if len(diag_path) >= n and (n == 1 or diag_path[0] == "instructions"):
        return tuple(diag_path[:n])
    return None


class UnknownDirective(Rule):
    __doc__ = rule_doc(
        "An instruction uses a `$`-directive sylla does not know.",
        "Keys starting with `$` other than `$phase`, `$repeat`, `$episode`, `$dataset` and "
        '`$info`, with a "did you mean" for misspellings. Schema errors caused by the same '
        "instruction are folded into this finding.",
        '{"$repaet": {"$episode": "Pong"}, "count": 5000}',
        '{"$repeat": {"$episode": "Pong"}, "count": 5000}',
        "Correct the directive name.",
        why="**Why it matters.** Engines reject or skip instructions they do not understand, so the "
        "block never runs and the schedule the metrics use is wrong from there on.",
    )
    code, name, severity = "N603", "unknown-directive", Severity.ERROR

    def _instruction_value(self, ctx: Context, path: tuple) -> Any:
        value = ctx.model.value
        for step in path:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def claims(self, diag: Diagnostic, ctx: Context) -> bool:
        if diag.kind != "schema":
            return False
        path = _instruction_path(ctx.model, diag.path)
        if path is None:
            return False
        return any(True for _ in _unknown_keys(self._instruction_value(ctx, path), path))

    def from_diagnostic(self, diag: Diagnostic, ctx: Context) -> Finding | None:
        return None  # the check below reports the instruction once

    def check(self, ctx: Context) -> Iterator[Finding]:
        base: tuple = () if ctx.model.form == "array" else ("instructions",)
        value = ctx.model.value if ctx.model.form == "array" else (ctx.model.value or {}).get("instructions")
        if not isinstance(value, list):
            return
        sm = ctx.model.source_map
        for i, instruction in enumerate(value):
            for path, key in _unknown_keys(instruction, base + (i,)):
                span = (sm.key_span(path + (key,)) if sm else None) or ctx.model.instructions[i].span
                yield ctx.finding(self, f'unknown directive "{key}"{did_you_mean(key, DIRECTIVES)}', span)
