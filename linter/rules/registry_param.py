"""R702 unknown-parameter."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class UnknownParameter(Rule):
    __doc__ = rule_doc(
        "A block sets a parameter its task does not have (per the task registry).",
        "Only with a `registry` that lists the task's `params`, or `\"gymnasium\"`, where an environment's "
        "constructor says what it takes (with the L2M names' own, such as `agent_pos`); checks the "
        "parameters each block writes, and those it takes from `default_params` (reported there, "
        "once per task).",
        '{"$repeat": {"$episode": "Pong", "bot/padle/width": 0.2}, "count": 5000}',
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.2}, "count": 5000}',
        "Correct the parameter name, or add it to the registry.",
        why="**Why it matters.** Engines pass unknown parameters on or drop them silently: the "
        "intended variation does not happen and CL metrics measure an unchanged environment.",
    )
    code, name, severity = "R702", "unknown-parameter", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        registry = ctx.registry
        if registry is None:
            return
        sm = ctx.model.source_map
        inherited: set[tuple[str, str]] = set()
        for b in ctx.model.blocks:
            spec = registry.lookup(b.task, b.module)
            accepted = registry.known_params(spec) if spec is not None else None
            if accepted is None or accepted.open:
                continue
            for name in b.params:
                if (b.leaf == "dataset" and name == "num_batches") or name in accepted.params:
                    continue
                hint = did_you_mean(name, accepted.params)
                if name in b.own_params:
                    span = (sm.key_span(b.leaf_path + (name,)) if sm else None) or b.leaf_span
                    yield ctx.finding(self, f'"{b.task}" has no parameter "{name}"{hint}', span)
                elif (name, b.task) not in inherited:  # from default_params: once per task, at its key
                    inherited.add((name, b.task))
                    span = (sm.key_span(("default_params", name)) if sm else None) or b.task_span
                    yield ctx.finding(self, f'"{b.task}" has no parameter "{name}" (from default_params){hint}', span)
