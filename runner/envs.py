"""The environments of a run: one per task and constructor arguments, made and reset once before
the first episode, so that a value the constructor or ``reset`` refuses (a start position on a
wall, conflicting sizes) is a usage error at its syllabus line instead of a crash mid-run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import EXIT_USAGE, RunError
from .tasks.errors import TaskError

if TYPE_CHECKING:
    from .plan import Plan
    from .tasks.registry import Registry


def make_envs(plan: "Plan", registry: "Registry", seed: int) -> dict[str, Any]:
    """``env_key -> environment`` for every block of the plan."""
    envs: dict[str, Any] = {}
    for b in plan.blocks:
        if b.env_key in envs:
            continue
        try:
            env = registry.make(b.spec, b.kwargs)
            env.reset(seed=seed)
        except TaskError:
            raise
        except Exception as exc:  # noqa: BLE001 - any error of third-party constructor code is the user's bad value, reported at its line
            close_all(envs)
            args = ", ".join(f"{k}={v!r}" for k, v in b.kwargs.items()) or "no arguments"
            raise RunError(f'task "{b.spec.name}" ({args}) cannot be made: {type(exc).__name__}: {exc}',
                           b.where, EXIT_USAGE) from None
        envs[b.env_key] = env
    return envs


def close_all(envs: dict[str, Any]) -> None:
    for env in envs.values():
        try:
            env.close()
        except Exception:  # noqa: BLE001 - closing is best effort on the way out; the run's own error is what the user needs
            pass
