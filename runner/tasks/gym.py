"""Gymnasium ids as tasks: which ids exist, what their constructors take, and making them.

Importing this module imports gymnasium, and MiniGrid when it is installed (its ids register on
import); the registry imports it only when a name is not one of its other sources'.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, Callable, Mapping

import gymnasium
from gymnasium.envs.registration import load_env_creator

from .signature import constructor_args as signature_args

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


@functools.lru_cache(maxsize=None)
def constructor_args(env_id: str) -> tuple[tuple[str, ...], bool]:
    """The arguments ``env_id``'s entry point takes (and whether any keyword passes); read
    once per id and process (the language server asks again at every lint)."""
    args, open_ = signature_args(creator(env_id))
    return tuple(args), open_


def make(env_id: str, kwargs: Mapping[str, Any]) -> Any:
    return gymnasium.make(env_id, **kwargs)
