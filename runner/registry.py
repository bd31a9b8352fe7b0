"""The task registry: which task names a syllabus may use and how each becomes an environment.

A task is data (`TaskSpec`): a Gymnasium id or a ``module:callable`` factory, fixed constructor
arguments, and how syllabus parameters map onto constructor arguments. The sources, first match
wins:

1. the ``tasks`` table of sylla's config (``sylla.toml`` / ``[tool.sylla]``, `user_tasks`);
2. the ``sylla.tasks`` entry-point group of installed packages (`user_tasks`);
3. the L2M ``$minigridkit:`` names (`l2m_tasks`);
4. every registered Gymnasium id (`gym_tasks`).

Looking a name up in the first three imports nothing: the config is TOML, entry points are
package metadata and the L2M table is data. Only a Gymnasium id, the parameters a constructor
accepts, or making an environment loads gymnasium (and the env's package), so the linter can ask
this registry for names and parameters and pay for gymnasium only when a syllabus needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping

from sylla.kit.suggest import closest

from . import l2m_tasks, user_tasks
from .errors import RunError
from .signature import constructor_args
from .task_spec import Accepted, TaskSpec

if TYPE_CHECKING:
    from pathlib import Path


class Registry:
    """The tasks of one project: its config's, its installed packages', L2M's and Gymnasium's."""

    def __init__(self, config_tasks: Mapping[str, TaskSpec] | None = None,
                 entry_point_tasks: Mapping[str, TaskSpec] | None = None) -> None:
        self.config_tasks = dict(config_tasks or {})
        self.entry_point_tasks = dict(entry_point_tasks or {})
        self._accepted: dict[int, tuple[TaskSpec, Accepted]] = {}

    @classmethod
    def for_project(cls, start: "str | Path | None") -> "Registry":
        """The registry seen from a syllabus (or folder): the nearest config's ``tasks`` and the
        ``sylla.tasks`` entry points."""
        return cls(user_tasks.config_tasks(start), user_tasks.entry_point_tasks())

    def lookup(self, task: str, module: str | None = None) -> TaskSpec | None:
        """The spec of a syllabus task (``$module:Task`` gives ``module``), or None."""
        for table in (self.config_tasks, self.entry_point_tasks):
            spec = table.get(task)
            if spec is not None and module in (None, spec.module):
                return spec
        spec = l2m_tasks.TASKS.get(task)
        if spec is not None and module in (None, spec.module):
            return spec
        if module is None and _gym().known(task):
            return TaskSpec(task, "Gymnasium", env_id=task)
        return None

    def names(self, with_gymnasium: bool = True) -> list[str]:
        """Every task name, for did-you-mean (Gymnasium's only when asked: it loads gymnasium)."""
        out = [*self.config_tasks, *self.entry_point_tasks, *l2m_tasks.TASKS]
        return out + (_gym().ids() if with_gymnasium else [])

    def require(self, task: str, module: str | None = None) -> TaskSpec:
        """`lookup`, or a `RunError` naming the task with did-you-mean."""
        spec = self.lookup(task, module)
        if spec is not None:
            return spec
        ref = f"${module}:{task}" if module else task
        guess = closest(task, self.names())
        hint = f' (did you mean "{guess}"?)' if guess else ""
        raise RunError(f'unknown task "{ref}"{hint}: not a Gymnasium id, an L2M $minigridkit: name, '
                       f"a task of the config's [tasks] table or of a sylla.tasks entry point")

    def accepted(self, spec: TaskSpec) -> Accepted:
        """The parameters ``spec`` takes (reads the constructor's signature: may import it)."""
        hit = self._accepted.get(id(spec))
        if hit is not None and hit[0] is spec:
            return hit[1]
        if spec.declared is not None:
            names, open_ = dict(spec.declared), False
        else:
            args, open_ = _gym().constructor_args(spec) if spec.env_id else constructor_args(load_factory(spec))
            names = {a: a for a in args if a not in spec.kwargs}
        for param, arg in spec.renames.items():
            names[param] = arg
        for param in spec.fixed:
            names[param] = ""
        accepted = Accepted(names, open_)
        self._accepted[id(spec)] = (spec, accepted)
        return accepted

    def kwargs(self, spec: TaskSpec, params: Mapping[str, Any]) -> dict[str, Any]:
        """The constructor arguments for a block's parameters: renamed, JSON arrays as tuples
        (MiniGrid asserts a tuple start position), fixed ones checked and dropped. An unknown
        parameter is a `RunError` naming it with did-you-mean."""
        accepted = self.accepted(spec)
        out = dict(spec.kwargs)
        for name, value in params.items():
            fixed = spec.fixed.get(name)
            if fixed is not None:
                if as_tuple(value) != as_tuple(fixed.value):
                    raise RunError(f'task "{spec.name}" cannot take {name} = {_json(value)}: {fixed.why}', param=name)
                continue
            arg = accepted.names.get(name)
            if arg is None:
                if not accepted.open:
                    raise RunError(unknown_param(spec.name, name, accepted.names), param=name)
                arg = name
            out[arg] = as_tuple(value)
        return out

    def make(self, spec: TaskSpec, kwargs: Mapping[str, Any]) -> Any:
        """A new environment of ``spec`` with these constructor arguments."""
        if spec.env_id is not None:
            return _gym().make(spec.env_id, kwargs)
        return load_factory(spec)(**kwargs)


def unknown_param(task: str, name: str, known: Mapping[str, str] | list[str]) -> str:
    guess = closest(name, list(known))
    hint = f' (did you mean "{guess}"?)' if guess else ""
    listed = ", ".join(sorted(known)) or "none"
    return f'task "{task}" has no parameter "{name}"{hint}; it takes: {listed}'


def as_tuple(value: Any) -> Any:
    """JSON arrays as tuples, recursively (Python constructors expect positions as tuples)."""
    if isinstance(value, list):
        return tuple(as_tuple(v) for v in value)
    return value


def _json(value: Any) -> str:
    import json  # noqa: PLC0415 - lazy: only for the message of a refused value

    return json.dumps(value)


def load_factory(spec: TaskSpec) -> Callable[..., Any]:
    """Import a task's ``module:callable`` factory (a config or entry-point task)."""
    assert spec.factory is not None
    module, _, attr = spec.factory.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise RunError(f'task "{spec.name}" ({spec.origin}): cannot load {spec.factory}: {exc}') from None
    if not callable(obj):
        raise RunError(f'task "{spec.name}" ({spec.origin}): {spec.factory} is not callable')
    return obj


def _gym() -> Any:
    from . import gym_tasks  # noqa: PLC0415 - lazy: gymnasium loads only when a Gymnasium id is looked up or made

    return gym_tasks
