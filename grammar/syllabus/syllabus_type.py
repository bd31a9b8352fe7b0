"""Infer a syllabus' type from its structure.

The reference text defines the types by structure: Continual Learning (CL) exercises one task
with parametric variation; Adapting to New Tasks (ANT) exercises several tasks, subtypes A and B
without parameter variation and C with it. A and B have the same shape (B chooses tasks for
transfer), so an undeclared several-task syllabus without variation is "ANT-A/B". One task
without any variation is a single-task-expert (STE) syllabus: the run that records the expert
curve the STE metrics compare against (l2metrics stores these per task), not a CL syllabus
that forgot to vary its parameters.
A parameter with the same value in every block of a task is not variation: published
syllabi repeat ``"agent_pos": [1, 1]`` on every block.
"""

from __future__ import annotations

import json

from sylla.grammar.syllabus.model import Syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

if TYPE_CHECKING:
    from typing import Any

UNANNOTATED = "unannotated"
_MISSING = "(not set)"


@record(frozen=True)
class TypeInference:
    type: str
    reason: str
    #: task -> parameter -> the distinct values it takes (in order of appearance)
    variation: dict[str, dict[str, tuple[str, ...]]]


def canonical(value: Any) -> str:
    """A hashable, order-stable spelling of a parameter value for comparisons."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def variation(model: Syllabus) -> dict[str, dict[str, tuple[str, ...]]]:
    """For each task, the parameters whose value is not the same in all of its blocks."""
    values: dict[str, dict[str, dict[str, None]]] = {}
    blocks_of: dict[str, int] = {}
    for block in model.blocks:
        blocks_of[block.task] = blocks_of.get(block.task, 0) + 1
        per_task = values.setdefault(block.task, {})
        for name, value in block.params.items():
            per_task.setdefault(name, {})[canonical(value)] = None
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for block in model.blocks:  # a parameter missing from some blocks of the task varies too
        per_task = values[block.task]
        for name, seen in per_task.items():
            if name not in block.params:
                seen[_MISSING] = None
    for task, params in values.items():
        varying = {name: tuple(seen) for name, seen in params.items() if len(seen) > 1}
        if varying:
            out[task] = varying
    return out


def _examples(values: tuple[str, ...], n: int = 4) -> str:
    shown = ", ".join(values[:n])
    return shown + (", …" if len(values) > n else "")


def infer_type(model: Syllabus) -> TypeInference:
    tasks = model.tasks
    varies = variation(model)
    if not model.phases:
        return TypeInference(UNANNOTATED, "no $phase annotations: metrics cannot be computed", varies)
    if not tasks:
        return TypeInference(UNANNOTATED, "no $episode or $dataset blocks", varies)
    names = ", ".join(tasks[:5]) + (", …" if len(tasks) > 5 else "")
    if len(tasks) == 1:
        if varies:
            param, values = next(iter(varies[tasks[0]].items()))
            return TypeInference("CL", f"one task ({names}); {param} varies ({_examples(values)})", varies)
        return TypeInference("STE", f"one task ({names}) and no parameter varies: a single-task-expert syllabus", varies)
    if varies:
        task, params = next(iter(varies.items()))
        param, values = next(iter(params.items()))
        return TypeInference(
            "ANT-C",
            f"{len(tasks)} tasks ({names}); parameters vary within a task: {param} of {task} ({_examples(values)})",
            varies,
        )
    return TypeInference("ANT-A/B", f"{len(tasks)} tasks ({names}) and no parameter varies within a task", varies)
