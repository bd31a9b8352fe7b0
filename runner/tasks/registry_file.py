"""A task registry file: which tasks exist, their parameters, types and ranges, for the linter.

A TOML or JSON file, named by the config's ``registry`` (or ``sylla lint --registry FILE``)::

    [tasks.Pong]
    params."bot/paddle/width" = { type = "number", min = 0.05, max = 0.5 }
    params.difficulty = { type = "string", choices = ["easy", "hard"] }
    [tasks.Breakout]

A parameter may also be just its type (``params.seed = "integer"``). Types: number, integer,
string, boolean, array. A task without ``params`` takes any parameter. Loading never runs code;
a bad file is a `TaskError` naming the file (the linter reports it as a config error).

The file is one source of the `Registry` (the one the linter's R7xx rules ask), beside the
config's ``tasks`` table, the L2M names and Gymnasium's ids that ``--registry gymnasium`` adds;
its tasks have no environment, so ``sylla run`` does not read it.
"""

from __future__ import annotations

import functools
import json

from sylla.kit.no_typing import TYPE_CHECKING

from .errors import TaskError
from .params import parse_param
from .spec import TaskSpec

if TYPE_CHECKING:
    from pathlib import Path

ORIGIN = "task registry file"


def load_file(path: "Path") -> dict[str, TaskSpec]:
    """The tasks of the registry file at ``path`` (read again when the file changes)."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        raise TaskError(f"{path}: cannot read task registry: {exc.strerror or exc}") from None
    return _load(path, stamp)


@functools.lru_cache(maxsize=8)
def _load(path: "Path", stamp: int) -> dict[str, TaskSpec]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TaskError(f"{path}: cannot read task registry: {exc.strerror or exc}") from None
    try:
        if path.suffix == ".json":
            data = json.loads(raw)
        else:
            import tomllib  # noqa: PLC0415 - lazy: start-up, tomllib loads only when used

            data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise TaskError(f"{path}: invalid task registry: {exc}") from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, dict):
        raise TaskError(f'{path}: a task registry needs a "tasks" table')
    out: dict[str, TaskSpec] = {}
    origin = f"{ORIGIN} {path}"
    for name, spec in tasks.items():
        if not isinstance(spec, dict):
            raise TaskError(f"{path}: tasks.{name} must be a table")
        params = spec.get("params")
        if params is None:
            out[name] = TaskSpec(name, origin)
            continue
        if not isinstance(params, dict):
            raise TaskError(f"{path}: tasks.{name}.params must be a table")

        def fail(message: str, task: str = name) -> TaskError:
            return TaskError(f"{path}: tasks.{task}.{message}")

        out[name] = TaskSpec(name, origin, params={p: parse_param(p, s, fail) for p, s in params.items()}, listed=True)
    return out
