"""The agent protocol: the events a run hands an agent, and nothing of the runner's internals.

For each block of the schedule::

    block_start(BlockStart)            # learning on or off, task, parameters
    for each episode of the block:
        episode_start(EpisodeStart)    # task, parameters, spaces, episode number
        repeat until the episode ends:
            action = act(observation)
            observe(observation, action, reward, next_observation, terminated, truncated)
        episode_end(reward, steps)     # the episode's return and length
    block_end(BlockStart)

``save(folder)`` and ``load(folder)`` keep everything the agent needs to go on (its tables or
weights, and its random state) for ``sylla run --resume``: a run resumed from a checkpoint must
give the rows an uninterrupted one gives. An agent is built as ``Agent(seed=N, **args)`` with
the ``--agent-arg`` values.

Learning is off in test phases, under ``$info`` ``disable_updates`` and in a phase with
``enable_updates: false`` (`BlockStart.learning`); the agent still sees every transition, with
its reward, and must not learn from them. Subclass `Agent` and override what you need: every
event but ``act`` does nothing by default.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

#: the file the default `Agent.save` writes into the checkpoint folder
STATE_FILE = "agent.pickle"


@dataclass(frozen=True)
class BlockStart:
    """A block of the schedule begins: ``index`` of the block, its task and parameters, and
    whether the agent may learn in it."""

    index: int
    task: str
    params: Mapping[str, Any]
    learning: bool
    episodes: int


@dataclass(frozen=True)
class EpisodeStart:
    """An episode begins: its number in the run, the task and parameters, and the environment's
    spaces (the same object each time for one task and parameter set)."""

    number: int
    task: str
    params: Mapping[str, Any]
    observation_space: Any
    action_space: Any
    learning: bool


class Agent:
    """The base of an agent: no-op events, ``act`` to write, and save/load that pickle the
    agent's ``__dict__`` (enough for agents whose state is plain Python and numpy)."""

    def __init__(self, seed: int = 0, **args: Any) -> None:
        if args:
            raise TypeError(f"unexpected agent arguments: {', '.join(sorted(args))}")
        self.seed = seed

    def block_start(self, block: BlockStart) -> None:
        """A block begins; ``block.learning`` says whether the agent may learn in it."""

    def episode_start(self, episode: EpisodeStart) -> None:
        """An episode begins."""

    def act(self, observation: Any) -> Any:
        """The action for this observation."""
        raise NotImplementedError

    def observe(self, observation: Any, action: Any, reward: float, next_observation: Any,
                terminated: bool, truncated: bool) -> None:
        """The transition the last action caused."""

    def episode_end(self, reward: float, steps: int) -> None:
        """The episode ended with this return after this many steps."""

    def block_end(self, block: BlockStart) -> None:
        """The block ended."""

    def save(self, folder: Path) -> None:
        """Write everything needed to go on into ``folder`` (which exists and is empty)."""
        with open(folder / STATE_FILE, "wb") as fh:
            pickle.dump(self.__dict__, fh, protocol=pickle.HIGHEST_PROTOCOL)

    def load(self, folder: Path) -> None:
        """Restore what `save` wrote into ``folder``."""
        with open(folder / STATE_FILE, "rb") as fh:
            self.__dict__.update(pickle.load(fh))
