"""The optional task registry: which tasks exist, their parameters, types and ranges.

A TOML or JSON file::

    [tasks.Pong]
    params."bot/paddle/width" = { type = "number", min = 0.05, max = 0.5 }
    params.difficulty = { type = "string", choices = ["easy", "hard"] }
    [tasks.Breakout]

A parameter may also be just its type (``params.seed = "integer"``). Types: number, integer,
string, boolean, array. Loading never runs code; a bad file is a ``ConfigError``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .config import ConfigError

_TYPES = ("number", "integer", "string", "boolean", "array")
_PARAM_KEYS = ("type", "min", "max", "choices", "description")


@dataclass(frozen=True)
class ParamSpec:
    type: str | None = None
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] | None = None

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed, or None."""
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


@dataclass(frozen=True)
class TaskSpec:
    name: str
    #: None: parameters are not listed, so none is reported as unknown
    params: Mapping[str, ParamSpec] | None = field(default=None)


@dataclass(frozen=True)
class TaskRegistry:
    path: Path
    tasks: Mapping[str, TaskSpec]


def load_registry(path: Path) -> TaskRegistry:
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read task registry: {exc.strerror or exc}") from None
    return _load(path, stamp)


@functools.lru_cache(maxsize=8)
def _load(path: Path, stamp: int) -> TaskRegistry:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read task registry: {exc.strerror or exc}") from None
    try:
        if path.suffix == ".json":
            data = json.loads(raw)
        else:
            import tomllib  # noqa: PLC0415 - lazy: start-up, tomllib loads only when used

            data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid task registry: {exc}") from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, dict):
        raise ConfigError(f'{path}: a task registry needs a "tasks" table')
    out: dict[str, TaskSpec] = {}
    for name, spec in tasks.items():
        if not isinstance(spec, dict):
            raise ConfigError(f"{path}: tasks.{name} must be a table")
        params = spec.get("params")
        if params is None:
            out[name] = TaskSpec(name)
            continue
        if not isinstance(params, dict):
            raise ConfigError(f"{path}: tasks.{name}.params must be a table")
        out[name] = TaskSpec(name, {p: _param(path, name, p, s) for p, s in params.items()})
    return TaskRegistry(path, out)


def _param(path: Path, task: str, name: str, spec: Any) -> ParamSpec:
    where = f'{path}: tasks.{task}.params."{name}"'
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, dict):
        raise ConfigError(f"{where} must be a type name or a table")
    for key in spec:
        if key not in _PARAM_KEYS:
            raise ConfigError(f'{where}: unknown key "{key}" (known: {", ".join(_PARAM_KEYS)})')
    kind = spec.get("type")
    if kind is not None and kind not in _TYPES:
        raise ConfigError(f'{where}: type must be one of {", ".join(_TYPES)}')
    choices = spec.get("choices")
    return ParamSpec(kind, spec.get("min"), spec.get("max"), tuple(choices) if isinstance(choices, list) else None)
