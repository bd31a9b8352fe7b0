"""M901 required-metric-infeasible."""

from __future__ import annotations

from sylla.grammar.core import Severity, Span
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class RequiredMetricInfeasible(Rule):
    __doc__ = rule_doc(
        "The syllabus cannot yield a metric the project requires.",
        "Runs only when `metrics = [...]` in `[tool.sylla]` or `--require-metric NAME` names metrics. "
        "For each one, sylla decides from the syllabus alone (what each metric plugin declares it "
        "needs: train and test blocks, repeated training, tests bracketing another task's "
        "training, ...) whether `sylla metrics` will give it a value, as `sylla explain FILE "
        "--metrics` shows. Each metric it cannot yield is reported at the place that needs the "
        "change, with the reason and the smallest fix. Single-task-expert runs and metric "
        "parameters are outside the syllabus and assumed given. An unknown metric name is "
        "reported too, with a \"did you mean\".",
        '# sylla.toml: metrics = ["perf_recovery"]\n'
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}, {"$phase": "1.test"}, ...',
        '{"$phase": "1.train"}, ... Pong ..., {"$phase": "1.test"}, ..., {"$phase": "2.train"}, ... Pong ..., '
        '{"$phase": "2.test"}, ..., {"$phase": "3.train"}, ... Pong ..., {"$phase": "3.test"}, ...',
        "Make the change the message names (often a test block or another train block), or drop the "
        "metric from the requirement.",
        why="**Why it matters.** A run is expensive; a syllabus that structurally cannot give a "
        "required metric wastes it, and the empty value only shows after the run.",
    )
    code, name, severity = "M901", "required-metric-infeasible", Severity.ERROR
    reads_structure = True

    def check(self, ctx: Context) -> Iterator[Finding]:
        required = ctx.config.metrics
        if not required:
            return
        sm = ctx.model.source_map
        top = (sm.key_span(("instructions",)) if sm is not None else None) or (
            ctx.model.instructions[0].span if ctx.model.instructions else Span(0, 0))
        try:
            from sylla.metrics.feasibility import feasibility  # noqa: PLC0415 - optional dependency: absent without the extra

            results = feasibility(ctx.model, ste_tasks=[b.task for b in ctx.model.blocks], any_params=True)
        except ImportError as exc:
            yield ctx.finding(self, f"cannot check the required metrics: the metrics extra is not installed "
                              f"(pip install 'sylla[metrics]'): {exc}", top)
            return
        by_name = {m.name: m for m in results}
        for name in required:
            m = by_name.get(name)
            if m is None:
                yield ctx.finding(self, f"required metric {name!r} is not a metric of any installed plugin"
                                  f"{did_you_mean(name, by_name)}", top)
            elif not m.feasible:
                fix = f"; {m.fix}" if m.fix else ""
                yield ctx.finding(self, f"required metric {name} cannot get a value: {m.reason}{fix}", m.span or top)
