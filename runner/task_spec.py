"""A task as data: the name a syllabus uses and how to make its environment (no imports of it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Fixed:
    """A syllabus parameter the environment has no argument for, accepted only with the value
    the environment always has (MiniGrid's crossing envs always start at (1, 1))."""

    value: Any
    why: str


@dataclass(frozen=True)
class TaskSpec:
    """One task name and how to make its environment.

    ``env_id`` (a Gymnasium id, made with ``gymnasium.make``) or ``factory`` (``module:callable``
    returning an environment, imported only when the run makes it). ``kwargs`` are fixed
    constructor arguments; ``renames`` map a syllabus parameter to the constructor argument it
    sets; ``fixed`` are parameters accepted only with one value. ``declared``: parameters a
    config entry lists itself (name -> constructor argument); None: read from the constructor.
    """

    name: str
    origin: str
    env_id: str | None = None
    factory: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    renames: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Fixed] = field(default_factory=dict)
    module: str | None = None
    declared: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Accepted:
    """The parameters a task takes: syllabus name -> constructor argument; ``open``: the
    constructor takes ``**kwargs`` that nothing names, so any parameter passes."""

    names: Mapping[str, str]
    open: bool = False
