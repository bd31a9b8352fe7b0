"""A project's own tasks: the ``tasks`` table of sylla's config and the ``sylla.tasks`` entry points.

In ``sylla.toml`` (or under ``[tool.sylla]`` in pyproject.toml)::

    [tasks.BigEmpty]
    env = "MiniGrid-Empty-16x16-v0"            # a Gymnasium id, or
    # entry-point = "mypackage.envs:make_env"  # a callable that returns an environment
    kwargs = { max_steps = 200 }               # fixed constructor arguments
    params.agent_pos = { kwarg = "agent_start_pos", type = "array" }

``params`` is optional: without it the constructor's signature says what the task takes. With
it, only the listed parameters are accepted, each becoming its ``kwarg`` (default: its own
name), and a value is checked against its ``type``, ``min``, ``max`` and ``choices``: the keys
of a task registry file (`registry_file`, `params`), so one table serves the linter and the run.

A package adds tasks with an entry point per task in the group ``sylla.tasks``, whose value is
a callable returning an environment (``BigEmpty = "mypackage.envs:make_env"``). Reading the
config or the entry points imports nothing of the task's code: that waits for the run.
"""

from __future__ import annotations

import functools

from sylla.kit.config_file import find_config_file, key_line
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from .errors import TaskError
from .params import parse_param
from .spec import TaskSpec

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

TASK_KEYS = ("env", "entry-point", "kwargs", "params", "description")
GROUP = "sylla.tasks"


def config_tasks(start: "str | Path | None") -> dict[str, TaskSpec]:
    """The ``tasks`` of the config nearest to ``start`` (a syllabus or folder); {} without one."""
    found = find_config_file(start)
    if found is None:
        return {}
    return tasks_of(*found)


def tasks_of(path: "Path", table: str) -> dict[str, TaskSpec]:
    """The ``tasks`` under ``[table]`` of the config file at ``path`` (``""``: the top, as in
    sylla.toml; ``"tool.sylla"`` in pyproject.toml); read again when the file changes."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        raise TaskError(f"cannot read: {exc.strerror or exc}", str(path)) from None
    return _tasks_of(path, table, stamp)


@functools.lru_cache(maxsize=8)
def _tasks_of(path: "Path", table: str, stamp: int) -> dict[str, TaskSpec]:
    import tomllib  # noqa: PLC0415 - lazy: start-up, tomllib loads only when a config exists

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskError(f"cannot read: {exc}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(f"invalid TOML: {exc}", str(path)) from None
    section: Any = data
    for part in table.split(".") if table else ():
        section = section.get(part, {}) if isinstance(section, dict) else {}
    tasks = section.get("tasks") if isinstance(section, dict) else None
    if tasks is None:
        return {}
    where_tasks = f"{table}.tasks" if table else "tasks"
    if not isinstance(tasks, dict):
        raise TaskError(f"[{where_tasks}] must be a table of tasks", f"{path}:{key_line(text, table, 'tasks')}")
    return {name: _task(path, text, where_tasks, name, spec) for name, spec in tasks.items()}


def _task(path: "Path", text: str, table: str, name: str, spec: Any) -> TaskSpec:
    def fail(message: str, key: str | None = None) -> TaskError:
        """At the key's line in the task's table when it has one, else at the task's."""
        line = key_line(text, f"{table}.{name}", key) if key else 1
        return TaskError(f"tasks.{name}: {message}", f"{path}:{line if line > 1 else key_line(text, table, name)}")

    if not isinstance(spec, dict):
        raise fail("must be a table")
    for key in spec:
        if key not in TASK_KEYS:
            raise fail(f'unknown key "{key}"{did_you_mean(key, TASK_KEYS)}; known keys: {", ".join(TASK_KEYS)}', key)
    env, factory = spec.get("env"), spec.get("entry-point")
    if (env is None) == (factory is None):
        raise fail('needs exactly one of env = "<Gymnasium id>" or entry-point = "<module>:<callable>"')
    if env is not None and not isinstance(env, str):
        raise fail("env must be a Gymnasium id (a string)", "env")
    if factory is not None and (not isinstance(factory, str) or ":" not in factory):
        raise fail('entry-point must be "<module>:<callable>"', "entry-point")
    kwargs = spec.get("kwargs", {})
    if not isinstance(kwargs, dict):
        raise fail("kwargs must be a table of constructor arguments", "kwargs")
    params = spec.get("params")
    if params is None:
        return TaskSpec(name, f"config {path}", env_id=env, factory=factory, kwargs=kwargs)
    if not isinstance(params, dict):
        raise fail("params must be a table", "params")
    declared = {p: parse_param(p, s, lambda message: fail(message, "params")) for p, s in params.items()}
    return TaskSpec(name, f"config {path}", env_id=env, factory=factory, kwargs=kwargs, params=declared, listed=True)


def entry_point_tasks() -> dict[str, TaskSpec]:
    """One task per entry point of the ``sylla.tasks`` group (read from package metadata)."""
    from importlib.metadata import entry_points  # noqa: PLC0415 - lazy: start-up, metadata loads only for a run

    out: dict[str, TaskSpec] = {}
    for ep in entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else "an installed package"
        out.setdefault(ep.name, TaskSpec(ep.name, f"{GROUP} entry point of {dist}", factory=ep.value))
    return out
