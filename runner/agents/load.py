"""``--agent NAME``: a built-in, an entry point of the ``sylla.agents`` group, or ``package.module:Class``.

A class with the agent protocol's ``act`` is built as ``Class(seed=N, **args)``. A class with
tella's ``choose_actions`` / ``receive_transitions`` is wrapped in `tella.TellaAgent`, which
builds it when the first episode gives the spaces. ``sb3-ppo`` and ``sb3-dqn`` are
stable-baselines3's PPO and DQN (`sb3`, the ``run-sb3`` extra).
"""

from __future__ import annotations

import importlib
import json
from typing import Any, Callable, Mapping

from sylla.kit.suggest import closest

from ..errors import RunError
from .base import Agent
from .builtin import BUILTIN

GROUP = "sylla.agents"
#: built-ins whose module loads only when chosen (name -> module:attribute)
LAZY_BUILTIN = {"sb3-ppo": "sylla.runner.agents.sb3:PPOAgent", "sb3-dqn": "sylla.runner.agents.sb3:DQNAgent"}


def parse_args(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value is read as JSON when it parses (numbers, true, lists), else
    kept as text."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise RunError(f"--agent-arg wants KEY=VALUE with KEY a Python name, got {item!r}")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points  # noqa: PLC0415 - lazy: metadata loads only when an agent is not a built-in

    return {ep.name: ep for ep in entry_points(group=GROUP)}


def _import(ref: str, name: str) -> Any:
    module, _, attr = ref.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except ImportError as exc:
        raise RunError(f'agent "{name}": cannot import {module}: {exc}') from None
    except AttributeError:
        raise RunError(f'agent "{name}": {module} has no {attr}') from None
    return obj


def resolve(name: str) -> Callable[..., Any]:
    """The class (or factory) ``--agent name`` means."""
    if name in BUILTIN:
        return BUILTIN[name]
    if name in LAZY_BUILTIN:
        return _import(LAZY_BUILTIN[name], name)
    if ":" in name:
        module, _, attr = name.partition(":")
        if not module or not attr:
            raise RunError(f'agent "{name}": write package.module:Class')
        return _import(name, name)
    found = _entry_points()
    if name in found:
        try:
            return found[name].load()
        except (ImportError, AttributeError) as exc:
            raise RunError(f'agent "{name}" ({GROUP} entry point {found[name].value}): cannot load: {exc}') from None
    known = [*BUILTIN, *LAZY_BUILTIN, *found]
    guess = closest(name, known)
    hint = f' (did you mean "{guess}"?)' if guess else ""
    raise RunError(f'unknown agent "{name}"{hint}; built-in: {", ".join([*BUILTIN, *LAZY_BUILTIN])}, '
                   f"or package.module:Class, or a {GROUP} entry point")


def build(name: str, args: Mapping[str, Any], seed: int) -> Agent:
    """The agent ``--agent name`` with ``--agent-arg`` values, seeded."""
    from .tella import TellaAgent, is_tella_agent  # noqa: PLC0415 - lazy: the adapter loads only for a tella-style class

    factory = resolve(name)
    if is_tella_agent(factory):
        return TellaAgent(factory, seed, dict(args))
    if not callable(getattr(factory, "act", None)):
        raise RunError(f'agent "{name}": {factory!r} has no act(observation) method (see docs/run.md, the agent protocol)')
    try:
        agent = factory(seed=seed, **args)
    except (TypeError, ValueError) as exc:
        raise RunError(f'agent "{name}": {exc}') from None
    except Exception as exc:  # noqa: BLE001 - the agent's own constructor: named, not a traceback
        raise RunError(f'agent "{name}" could not be made: {type(exc).__name__}: {exc}') from None
    return agent
