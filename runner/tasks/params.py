"""A parameter's declaration, as a registry file and the config's ``tasks`` table write it::

    params.agent_pos = { kwarg = "agent_start_pos", type = "array" }
    params."bot/paddle/width" = { type = "number", min = 0.05, max = 0.5 }
    params.seed = "integer"            # just its type

One reader for both, so one table can serve the linter and ``sylla run``.
"""

from __future__ import annotations

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from .spec import TYPES, Param

if TYPE_CHECKING:
    from typing import Any, Callable

    from .errors import TaskError

#: the keys of one parameter's table
PARAM_KEYS = ("kwarg", "type", "min", "max", "choices", "description")


def parse_param(name: str, raw: Any, fail: "Callable[[str], TaskError]") -> Param:
    """The `Param` declared by ``raw``; ``fail(message)`` makes the error (it adds the place)."""
    where = f'params."{name}"'
    if isinstance(raw, str):
        raw = {"type": raw}
    if not isinstance(raw, dict):
        raise fail(f"{where} must be a type name or a table")
    for key in raw:
        if key not in PARAM_KEYS:
            raise fail(f'{where}: unknown key "{key}"{did_you_mean(key, PARAM_KEYS)}; known keys: {", ".join(PARAM_KEYS)}')
    kind = raw.get("type")
    if kind is not None and kind not in TYPES:
        raise fail(f'{where}: type must be one of {", ".join(TYPES)}')
    kwarg = raw.get("kwarg", name)
    if not isinstance(kwarg, str) or not kwarg:
        raise fail(f"{where}: kwarg must be a constructor argument's name")
    bounds = {}
    for key in ("min", "max"):
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise fail(f"{where}: {key} must be a number")
        bounds[key] = value
    choices = raw.get("choices")
    if choices is not None and not isinstance(choices, list):
        raise fail(f"{where}: choices must be a list of the values it may take")
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        raise fail(f"{where}: description must be text")
    return Param(kwarg, kind, bounds["min"], bounds["max"], tuple(choices) if choices is not None else None, description)
