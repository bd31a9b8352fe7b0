"""A project's own tasks: the ``tasks`` table of sylla's config and the ``sylla.tasks`` entry points.

In ``sylla.toml`` (or under ``[tool.sylla]`` in pyproject.toml)::

    [tasks.BigEmpty]
    env = "MiniGrid-Empty-16x16-v0"            # a Gymnasium id, or
    # entry-point = "mypackage.envs:make_env"  # a callable that returns an environment
    kwargs = { max_steps = 200 }               # fixed constructor arguments
    params.agent_pos = { kwarg = "agent_start_pos", type = "array" }

``params`` is optional: without it the constructor's signature says what the task takes. With
it, only the listed parameters are accepted, each becoming its ``kwarg`` (default: its own
name). A parameter's ``type``, ``min``, ``max``, ``choices`` and ``description`` are the keys of
the linter's task registry file (``linter/task_registry.py``), so one table can serve both.

A package adds tasks with an entry point per task in the group ``sylla.tasks``, whose value is
a callable returning an environment (``BigEmpty = "mypackage.envs:make_env"``). Reading the
config or the entry points imports nothing of the task's code: that waits for the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sylla.kit.suggest import did_you_mean
from sylla.linter.config import find_config_file, key_line

from .errors import RunError
from .task_spec import TaskSpec

if TYPE_CHECKING:
    from pathlib import Path

TASK_KEYS = ("env", "entry-point", "kwargs", "params", "description")
PARAM_KEYS = ("kwarg", "type", "min", "max", "choices", "description")
GROUP = "sylla.tasks"


def config_tasks(start: "str | Path | None") -> dict[str, TaskSpec]:
    """The ``tasks`` of the config nearest to ``start`` (a syllabus or folder); {} without one."""
    found = find_config_file(start)
    if found is None:
        return {}
    path, table = found
    import tomllib  # noqa: PLC0415 - lazy: start-up, tomllib loads only when a config exists

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise RunError(f"cannot read: {exc}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise RunError(f"invalid TOML: {exc}", str(path)) from None
    section: Any = data
    for part in table.split(".") if table else ():
        section = section.get(part, {}) if isinstance(section, dict) else {}
    tasks = section.get("tasks") if isinstance(section, dict) else None
    if tasks is None:
        return {}
    where_tasks = f"{table}.tasks" if table else "tasks"
    if not isinstance(tasks, dict):
        raise RunError(f"[{where_tasks}] must be a table of tasks", f"{path}:{key_line(text, table, 'tasks')}")
    return {name: _task(path, text, where_tasks, name, spec) for name, spec in tasks.items()}


def _task(path: "Path", text: str, table: str, name: str, spec: Any) -> TaskSpec:
    def fail(message: str, key: str | None = None) -> RunError:
        """At the key's line in the task's table when it has one, else at the task's."""
        line = key_line(text, f"{table}.{name}", key) if key else 1
        return RunError(f"tasks.{name}: {message}", f"{path}:{line if line > 1 else key_line(text, table, name)}")

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
    declared: dict[str, str] | None = None
    params = spec.get("params")
    if params is not None:
        if not isinstance(params, dict):
            raise fail("params must be a table", "params")
        declared = {}
        for param, pspec in params.items():
            if isinstance(pspec, str):
                pspec = {"type": pspec}
            if not isinstance(pspec, dict):
                raise fail(f'params."{param}" must be a type name or a table', "params")
            for key in pspec:
                if key not in PARAM_KEYS:
                    raise fail(f'params."{param}": unknown key "{key}"{did_you_mean(key, PARAM_KEYS)}; '
                               f'known keys: {", ".join(PARAM_KEYS)}', "params")
            kwarg = pspec.get("kwarg", param)
            if not isinstance(kwarg, str) or not kwarg:
                raise fail(f'params."{param}".kwarg must be a constructor argument name', "params")
            declared[param] = kwarg
    return TaskSpec(name, f"config {path}", env_id=env, factory=factory, kwargs=kwargs, declared=declared)


def entry_point_tasks() -> dict[str, TaskSpec]:
    """One task per entry point of the ``sylla.tasks`` group (read from package metadata)."""
    from importlib.metadata import entry_points  # noqa: PLC0415 - lazy: start-up, metadata loads only for a run

    out: dict[str, TaskSpec] = {}
    for ep in entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else "an installed package"
        out.setdefault(ep.name, TaskSpec(ep.name, f"{GROUP} entry point of {dist}", factory=ep.value))
    return out


