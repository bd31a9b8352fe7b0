"""R703 bad-parameter-value."""

from __future__ import annotations

import json

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class BadParameterValue(Rule):
    __doc__ = rule_doc(
        "A parameter value has the wrong type or is out of the range the task registry gives.",
        "Only with a `registry` that gives the parameter a `type`, `min`/`max` or `choices`.",
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 5}, "count": 5000}',
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.25}, "count": 5000}',
        "Use a value in the range.",
        why="**Why it matters.** Out-of-range values either crash the environment mid-run or "
        "produce a degenerate task whose rewards distort every metric of its phase.",
    )
    code, name, severity = "R703", "bad-parameter-value", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        registry = ctx.registry
        if registry is None:
            return
        sm = ctx.model.source_map
        inherited: set[tuple[str, str]] = set()
        for b in ctx.model.blocks:
            spec = registry.lookup(b.task, b.module)
            accepted = registry.known_params(spec) if spec is not None else None
            if accepted is None:
                continue
            for name, value in b.params.items():
                param = accepted.params.get(name)
                problem = param.problem(value) if param is not None else None
                if not problem:
                    continue
                if name in b.own_params:
                    span = b.param_span(name) or b.leaf_span
                    yield ctx.finding(self, f'"{name}" of "{b.task}" {problem}, got {json.dumps(value)}', span)
                elif (name, b.task) not in inherited:  # from default_params: once per task, at its value
                    inherited.add((name, b.task))
                    span = (sm.span(("default_params", name)) if sm else None) or b.task_span
                    yield ctx.finding(self, f'"{name}" of "{b.task}" (from default_params) {problem}, got {json.dumps(value)}', span)
