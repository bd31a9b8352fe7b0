"""The task registry the R7xx rules ask, from the config's ``registry`` (or ``--registry``).

The registry itself is the runner's sub-room ``sylla.runner.tasks``, which sits below the linter
(it imports only ``sylla.kit``): a registry file gives its tasks alone, ``"gymnasium"`` the tasks
``sylla run`` can make (the config's ``tasks``, ``sylla.tasks`` entry points, the L2M names and
every Gymnasium id). This module is imported only when a config names a registry, and gymnasium
itself loads only when a name is not one of the tables' (``tests/cli/test_imports.py``).
"""

from __future__ import annotations

from collections.abc import Mapping

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.runner.tasks.errors import TaskError
from sylla.runner.tasks.registry import GYMNASIUM, Registry, gymnasium_available

from .config import ConfigError

if TYPE_CHECKING:
    from typing import Iterator

    from .config import Config


def task_registry(config: "Config") -> Registry:
    """The `Registry` ``config.registry`` names; a `ConfigError` for a bad file or a missing
    gymnasium, as for any other config problem."""
    assert config.registry is not None
    if config.registry == GYMNASIUM and not gymnasium_available():
        where = f"{config.source}: " if config.source is not None else ""
        raise ConfigError(f'{where}registry = "gymnasium" needs gymnasium and MiniGrid: pip install "sylla[run]"')
    try:
        return Registry.for_lint(config.registry, config.source)
    except TaskError as exc:
        raise ConfigError(str(exc)) from None


class TaskParams(Mapping[str, tuple[str, ...]]):
    """Task name -> its parameter names, for the editor's completion: the names are listed
    once, a task's parameters read only when it is completed (a Gymnasium constructor loads its
    package)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._names = list(dict.fromkeys(registry.names()))

    def __getitem__(self, name: str) -> tuple[str, ...]:
        spec = self.registry.lookup(name)
        if spec is None:
            raise KeyError(name)
        accepted = self.registry.known_params(spec)
        return tuple(accepted.params) if accepted is not None else ()

    def __iter__(self) -> "Iterator[str]":
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
