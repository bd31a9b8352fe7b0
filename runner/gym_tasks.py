"""Gymnasium ids as tasks: which ids exist, what their constructors take, and making them.

Importing this module imports gymnasium, and MiniGrid when it is installed (its ids register on
import); the registry imports it only when a name is not one of its own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping

import gymnasium
from gymnasium.envs.registration import load_env_creator

from .signature import constructor_args as signature_args

if TYPE_CHECKING:
    from .task_spec import TaskSpec

#: packages whose import registers Gymnasium ids, imported when installed
ENV_PACKAGES = ("minigrid",)


def _register_packages() -> None:
    for name in ENV_PACKAGES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


_register_packages()


def known(env_id: str) -> bool:
    return env_id in gymnasium.registry


def ids() -> list[str]:
    return list(gymnasium.registry)


def creator(env_id: str) -> Callable[..., Any]:
    entry = gymnasium.spec(env_id).entry_point
    return load_env_creator(entry) if isinstance(entry, str) else entry  # type: ignore[return-value]  # an EnvCreator is a callable


def constructor_args(spec: "TaskSpec") -> tuple[list[str], bool]:
    """The arguments ``spec.env_id``'s entry point takes (and whether any keyword passes)."""
    assert spec.env_id is not None
    return signature_args(creator(spec.env_id))


def make(env_id: str, kwargs: Mapping[str, Any]) -> Any:
    return gymnasium.make(env_id, **kwargs)
