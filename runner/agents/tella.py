"""Run a tella-style agent: a class with tella 2.1's ``ContinualRLAgent`` event methods.

tella is not a dependency; the adapter speaks its shape. tella builds the agent with
``(rng_seed, observation_space, action_space, num_envs, config_file)``, so the adapter builds it
at the first episode, when the spaces are known (one environment: ``num_envs=1``). It then maps
sylla's events onto tella's:

==========================  ==================================================================
sylla                       tella 2.1
==========================  ==================================================================
block start (learning)      ``is_learning_allowed`` set, ``block_start(is_learning_allowed)``
first episode of a block    ``task_start(task)``, ``task_variant_start(task, variant)``
act                         ``choose_actions([observation])[0]``
observe                     ``receive_transitions([Transition(obs, action, reward, done, next)])``
block end                   ``task_variant_end``, ``task_end``, ``block_end(is_learning_allowed)``
==========================  ==================================================================

As tella does, the reward is hidden (None) from the agent while learning is off. The variant
name is the block's parameters as compact JSON (tella names a variant by its parameters).
``config_file`` is the ``config_file`` agent argument; other arguments are refused.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any, Callable, NamedTuple

from ..errors import RunError
from .base import Agent, BlockStart, EpisodeStart

STATE_FILE = "tella-agent.pickle"


class Transition(NamedTuple):
    """tella's ``Transition``: (observation, action, reward, done, next_observation)."""

    observation: Any
    action: Any
    reward: float | None
    done: bool
    next_observation: Any


def is_tella_agent(factory: Any) -> bool:
    return all(callable(getattr(factory, m, None)) for m in ("choose_actions", "receive_transitions"))


class TellaAgent(Agent):
    """A tella ``ContinualRLAgent``-shaped class behind sylla's protocol."""

    def __init__(self, factory: Callable[..., Any], seed: int, args: dict[str, Any]) -> None:
        super().__init__(seed)
        unknown = set(args) - {"config_file"}
        if unknown:
            raise RunError(f"a tella agent takes only the config_file argument, not {', '.join(sorted(unknown))}")
        self.factory = factory
        self.config_file = args.get("config_file")
        self.inner: Any = None
        self.block: BlockStart | None = None
        self.variant: str | None = None

    def block_start(self, block: BlockStart) -> None:
        self.block = block
        self.variant = json.dumps(dict(block.params), sort_keys=True, separators=(",", ":"))
        if self.inner is not None:
            self._start_block()

    def _start_block(self) -> None:
        assert self.block is not None
        self.inner.is_learning_allowed = self.block.learning
        self.inner.block_start(self.block.learning)
        self.inner.task_start(self.block.task)
        self.inner.task_variant_start(self.block.task, self.variant)

    def episode_start(self, episode: EpisodeStart) -> None:
        if self.inner is None:
            self.inner = self.factory(self.seed, episode.observation_space, episode.action_space, 1, self.config_file)
            self._start_block()

    def act(self, observation: Any) -> Any:
        return self.inner.choose_actions([observation])[0]

    def observe(self, observation: Any, action: Any, reward: float, next_observation: Any,
                terminated: bool, truncated: bool) -> None:
        assert self.block is not None
        shown = reward if self.block.learning else None
        self.inner.receive_transitions([Transition(observation, action, shown, terminated or truncated, next_observation)])

    def block_end(self, block: BlockStart) -> None:
        if self.inner is not None:
            self.inner.task_variant_end(block.task, self.variant)
            self.inner.task_end(block.task)
            self.inner.block_end(block.learning)

    def save(self, folder: Path) -> None:
        """Pickle the tella agent (its spaces and whatever it learned) and the block in progress."""
        with open(folder / STATE_FILE, "wb") as fh:
            pickle.dump((self.inner, self.block, self.variant), fh, protocol=pickle.HIGHEST_PROTOCOL)

    def load(self, folder: Path) -> None:
        with open(folder / STATE_FILE, "rb") as fh:
            self.inner, self.block, self.variant = pickle.load(fh)
