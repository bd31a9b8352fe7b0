"""The task registry: the tasks a syllabus may name, from its sources, first match wins.

1. a task registry file (`registry_file`): the linter's, named by the config's ``registry``;
2. the ``tasks`` table of sylla's config (``sylla.toml`` / ``[tool.sylla]``, `user_tasks`);
3. the ``sylla.tasks`` entry-point group of installed packages (`user_tasks`);
4. the L2M ``$minigridkit:`` names (`l2m`);
5. every registered Gymnasium id (`gym`).

``sylla run`` asks 2-5 (`Registry.for_run`); ``sylla lint`` asks 1 alone with a registry file,
and 2-5 with ``--registry gymnasium`` (`Registry.for_lint`). Looking a name up in 1-4 imports
nothing: TOML, package metadata and a table. Only a Gymnasium id, the parameters a constructor
takes, or making an environment loads gymnasium (and the env's package), so the linter pays for
gymnasium only when a syllabus needs it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
from pathlib import Path

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import closest

from . import l2m, user_tasks
from .errors import TaskError
from .signature import constructor_args
from .spec import Accepted, Param, TaskSpec

if TYPE_CHECKING:
    from typing import Any, Callable, Iterator, Mapping, Sequence

#: the config's ``registry`` value (and ``--registry``'s) that names this registry
GYMNASIUM = "gymnasium"


class Registry:
    """The tasks of one project: its sources' tables in order, then Gymnasium's ids when
    ``gymnasium`` is on."""

    def __init__(self, tables: "Sequence[Mapping[str, TaskSpec]]" = (), gymnasium: bool = True) -> None:
        self.tables = [dict(t) for t in tables]
        self.gymnasium = gymnasium
        self._accepted: dict[int, tuple[TaskSpec, Accepted]] = {}

    @classmethod
    def for_run(cls, start: "str | Path | None") -> "Registry":
        """What ``sylla run`` makes environments from, seen from a syllabus (or folder): the
        nearest config's ``tasks``, the ``sylla.tasks`` entry points, the L2M names and
        Gymnasium."""
        return cls([user_tasks.config_tasks(start), user_tasks.entry_point_tasks(), l2m.TASKS])

    @classmethod
    def for_lint(cls, registry: "str | Path", config: "Path | None") -> "Registry":
        """What the R7xx rules ask: a registry file alone, or, for ``gymnasium``, what
        ``sylla run`` would make (with the ``tasks`` of the config file ``config``, if any).
        The file's tasks and the gymnasium registry are cached per file and modification time:
        the language server lints again and again."""
        if str(registry) == GYMNASIUM:
            if config is None:
                return _lint_registry(None, "", 0)
            table = "tool.sylla" if config.name == "pyproject.toml" else ""
            return _lint_registry(config, table, _stamp(config))
        from .registry_file import load_file  # noqa: PLC0415 - lazy: a registry file is read only when a config names one

        return cls([load_file(Path_(registry))], gymnasium=False)

    def lookup(self, task: str, module: str | None = None) -> TaskSpec | None:
        """The spec of a syllabus task (``$module:Task`` gives ``module``), or None."""
        for table in self.tables:
            spec = table.get(task)
            if spec is not None and (module is None or spec.module in (None, module)):
                return spec
        if self.gymnasium and module is None and _gym().known(task):
            return gym_spec(task)
        return None

    def names(self, with_gymnasium: bool = True) -> list[str]:
        """Every task name, for did-you-mean (Gymnasium's only when asked: it loads gymnasium)."""
        out = [name for table in self.tables for name in table]
        return out + (_gym().ids() if self.gymnasium and with_gymnasium else [])

    def refs(self) -> "Iterator[str]":
        """Every task as a syllabus names it (``$minigridkit:Minigrid6x6``), for completion."""
        for table in self.tables:
            for name, spec in table.items():
                yield f"${spec.module}:{name}" if spec.module else name
        if self.gymnasium:
            yield from _gym().ids()

    def guess(self, task: str, module: str | None = None) -> str | None:
        """The task a misspelt one most likely meant, as a syllabus names it: with a module,
        among the names under their modules (``$otherkit:Minigrid5x5`` gets
        ``$minigridkit:Minigrid5x5``, not the same bare name back)."""
        if module is None:
            return closest(task, self.names())
        return closest(f"${module}:{task}", list(self.refs()))

    def unknown_task(self, task: str, module: str | None = None) -> str:
        """The message for a name `lookup` does not know, with did-you-mean."""
        ref = f"${module}:{task}" if module else task
        guess = self.guess(task, module)
        hint = f' (did you mean "{guess}"?)' if guess else ""
        if not self.gymnasium:
            return f'unknown task "{ref}"{hint}'
        return (f'unknown task "{ref}"{hint}: not a Gymnasium id, an L2M $minigridkit: name, a task of the '
                "config's [tasks] table or of a sylla.tasks entry point")

    def require(self, task: str, module: str | None = None) -> TaskSpec:
        """`lookup`, or a `TaskError` naming the task with did-you-mean."""
        spec = self.lookup(task, module)
        if spec is None:
            raise TaskError(self.unknown_task(task, module))
        return spec

    def accepted(self, spec: TaskSpec) -> Accepted:
        """The parameters ``spec`` takes: its own list, or what its constructor's signature
        says (which imports the constructor) with the source's own parameters on top."""
        hit = self._accepted.get(id(spec))
        if hit is not None and hit[0] is spec:
            return hit[1]
        if spec.listed:
            accepted = Accepted(dict(spec.params), False)
        elif not spec.makeable:
            accepted = Accepted(dict(spec.params), True)
        else:
            if spec.env_id is not None:
                args, open_ = _gym().constructor_args(spec.env_id)
            else:
                found, open_ = constructor_args(load_factory(spec))
                args = tuple(found)
            params = {a: Param(a) for a in args if a not in spec.kwargs}
            params.update(spec.params)
            accepted = Accepted(params, open_)
        self._accepted[id(spec)] = (spec, accepted)
        return accepted

    def known_params(self, spec: TaskSpec) -> Accepted | None:
        """What the linter may say ``spec`` takes: `accepted`, or None when its constructor
        cannot be read (an entry point that does not import, an id whose
        package is missing: ``sylla run`` reports those when it makes the environment)."""
        try:
            accepted = self.accepted(spec)
        except Exception:  # noqa: BLE001 - reading a third-party constructor may raise anything; the linter then says nothing of it
            return None
        return accepted

    def kwargs(self, spec: TaskSpec, params: "Mapping[str, Any]") -> dict[str, Any]:
        """The constructor arguments for a block's parameters: renamed, JSON arrays as tuples
        (MiniGrid asserts a tuple start position), each value checked against its `Param`. An
        unknown parameter or a refused value is a `TaskError` naming it (with did-you-mean)."""
        if not spec.makeable:
            raise TaskError(f'task "{spec.name}" ({spec.origin}) has no environment to make: give it env = '
                            f'"<Gymnasium id>" or entry-point = "<module>:<callable>" in the config\'s [tasks]')
        accepted = self.accepted(spec)
        out = dict(spec.kwargs)
        for name, value in params.items():
            param = accepted.params.get(name)
            if param is None:
                if not accepted.open:
                    raise TaskError(unknown_param(spec.name, name, accepted.params), param=name)
                out[name] = as_tuple(value)
                continue
            problem = param.problem(value)
            if problem:
                raise TaskError(f'task "{spec.name}" cannot take {name} = {_json(value)}: it {problem}', param=name)
            if param.kwarg is not None:
                out[param.kwarg] = as_tuple(value)
        return out

    def make(self, spec: TaskSpec, kwargs: "Mapping[str, Any]") -> Any:
        """A new environment of ``spec`` with these constructor arguments."""
        if spec.env_id is not None:
            return _gym().make(spec.env_id, kwargs)
        return load_factory(spec)(**kwargs)


def Path_(value: "str | Path") -> "Path":

    return Path(value)


def _stamp(path: "Path") -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


@functools.lru_cache(maxsize=8)
def _lint_registry(config: "Path | None", table: str, stamp: int) -> Registry:
    tables = [user_tasks.tasks_of(config, table)] if config is not None else []
    return Registry([*tables, user_tasks.entry_point_tasks(), l2m.TASKS])


@functools.lru_cache(maxsize=None)
def gym_spec(env_id: str) -> TaskSpec:
    """The spec of a Gymnasium id (one object per id, so what it accepts is read once)."""
    return TaskSpec(env_id, "Gymnasium", env_id=env_id)


def gymnasium_available() -> bool:
    """Whether gymnasium is installed (asked without importing it)."""

    return importlib.util.find_spec("gymnasium") is not None


def unknown_param(task: str, name: str, known: "Mapping[str, Any] | Sequence[str]") -> str:
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

    return json.dumps(value)


def load_factory(spec: TaskSpec) -> "Callable[..., Any]":
    """Import a task's ``module:callable`` factory (a config or entry-point task)."""
    assert spec.factory is not None
    module, _, attr = spec.factory.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise TaskError(f'task "{spec.name}" ({spec.origin}): cannot load {spec.factory}: {exc}') from None
    if not callable(obj):
        raise TaskError(f'task "{spec.name}" ({spec.origin}): {spec.factory} is not callable')
    return obj


def _gym() -> Any:
    from . import gym  # noqa: PLC0415 - lazy: gymnasium loads only when a Gymnasium id is looked up or made

    return gym
