"""A task and its parameters as data: the name a syllabus uses, how to make its environment,
and what each parameter may be (nothing here imports the environment)."""

from __future__ import annotations

import json

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field, record

if TYPE_CHECKING:
    from typing import Any, Mapping

#: the types a parameter may declare (a registry file's or a config table's ``type``)
TYPES = ("number", "integer", "string", "boolean", "array")


@record(frozen=True)
class Param:
    """One parameter of a task.

    ``kwarg`` is the constructor argument it sets (the L2M ``agent_pos`` sets MiniGrid's
    ``agent_start_pos``); None for a parameter the environment has no argument for, accepted
    only as ``choices`` allow and not passed on (MiniGrid's crossing rooms always start at
    (1, 1)), ``why`` saying so. ``type``, ``min``, ``max`` and ``choices`` are what a registry
    file or config table declares; R703 and ``sylla run`` check a value against them."""

    kwarg: str | None = None
    type: str | None = None
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] | None = None
    description: str | None = None
    why: str | None = None

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed, or None."""
        found = self._problem(value)
        return f"{found} ({self.why})" if found and self.why else found

    def _problem(self, value: Any) -> str | None:
        if self.type is not None and not _is_type(value, self.type):
            return f"must be {'an' if self.type[0] in 'aeiou' else 'a'} {self.type}"
        if self.choices is not None and value not in self.choices:
            return "must be one of " + ", ".join(json.dumps(c) for c in self.choices)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and self.min is not None and value < self.min:
            return f"is below the minimum {self.min:g}"
        if number and self.max is not None and value > self.max:
            return f"is above the maximum {self.max:g}"
        return None


def _is_type(value: Any, kind: str) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind == "integer":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, (int, float))
    if kind == "string":
        return isinstance(value, str)
    return isinstance(value, list)


@record(frozen=True)
class TaskSpec:
    """One task name and how to make its environment.

    ``env_id`` (a Gymnasium id, made with ``gymnasium.make``) or ``factory`` (``module:callable``
    returning an environment, imported only when the run makes it), or neither: a task a
    registry file lists for the linter alone, which ``sylla run`` cannot make. ``kwargs`` are
    fixed constructor arguments. ``params`` are the parameters the source names itself: with
    ``listed``, the whole list (a registry file's or config table's ``params``); without, they
    add to what the constructor's signature takes (the L2M names' ``agent_pos``). ``module`` is
    the kit a syllabus may name the task under (``$minigridkit:Minigrid6x6``); None: any.
    """

    name: str
    origin: str
    env_id: str | None = None
    factory: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Param] = field(default_factory=dict)
    listed: bool = False
    module: str | None = None

    @property
    def makeable(self) -> bool:
        return self.env_id is not None or self.factory is not None


@record(frozen=True)
class Accepted:
    """The parameters a task takes, each with its `Param`; ``open``: any other parameter passes
    too (a constructor with ``**kwargs`` that nothing names, a registry file's task without
    ``params``)."""

    params: Mapping[str, Param]
    open: bool = False
