"""The built-in agents: ``random`` and ``tabular-q``.

``tabular-q`` is ε-greedy Q-learning (Watkins; Sutton & Barto, *Reinforcement Learning*, 2nd ed.,
§6.5) over hashed observations: an observation's bytes (a MiniGrid view and direction) are its
state. It is small on purpose: strong enough to learn MiniGrid's 5×5 room in a few hundred
episodes on a CPU, so a run shows learning, forgetting and transfer in seconds, and its table is
shared by every task, so what one task teaches shows on the others.
"""

from __future__ import annotations

from typing import Any, Hashable

import numpy as np

from .base import Agent, BlockStart, EpisodeStart


def discrete_actions(space: Any) -> tuple[int, int]:
    """``(start, n)`` of a Discrete action space; a `TypeError` for any other space."""
    n = getattr(space, "n", None)
    if n is None or getattr(space, "shape", None) != ():
        raise TypeError(f"needs a Discrete action space, got {space}")
    return int(getattr(space, "start", 0)), int(n)


class RandomAgent(Agent):
    """Uniformly random actions (a Discrete space's from its own generator, others by the
    space's ``sample``, seeded once from the run's seed)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = np.random.default_rng(seed)
        self.space: Any = None
        self.start, self.n = 0, 0

    def episode_start(self, episode: EpisodeStart) -> None:
        if episode.action_space is not self.space:
            self.space = episode.action_space
            try:
                self.start, self.n = discrete_actions(self.space)
            except TypeError:
                self.n = 0
                self.space.seed(int(self.rng.integers(2**32)))

    def act(self, observation: Any) -> Any:
        if self.n:
            return self.start + int(self.rng.integers(self.n))
        return self.space.sample()


def state_key(observation: Any) -> Hashable:
    """A hashable key for an observation: an array's bytes, a dict's values in key order."""
    if isinstance(observation, np.ndarray):
        return observation.tobytes()
    if isinstance(observation, dict):
        return tuple(state_key(observation[k]) for k in sorted(observation))
    if isinstance(observation, (list, tuple)):
        return tuple(state_key(v) for v in observation)
    return observation


class TabularQ(Agent):
    """ε-greedy Q-learning over hashed observations, one table for all tasks.

    ``alpha`` is the step size, ``gamma`` the discount, ``epsilon`` the exploration rate while
    learning (``eval_epsilon`` with learning off). Ties among the best actions are broken at
    random, so an unseen state explores. With learning off the table is not touched."""

    def __init__(self, seed: int = 0, alpha: float = 0.5, gamma: float = 0.95, epsilon: float = 0.1,
                 eval_epsilon: float = 0.0) -> None:
        super().__init__(seed)
        for name, value, top in (("alpha", alpha, 1.0), ("gamma", gamma, 1.0), ("epsilon", epsilon, 1.0),
                                 ("eval_epsilon", eval_epsilon, 1.0)):
            if not 0.0 <= float(value) <= top:
                raise ValueError(f"{name} must be in [0, {top:g}], got {value}")
        self.alpha, self.gamma = float(alpha), float(gamma)
        self.epsilon, self.eval_epsilon = float(epsilon), float(eval_epsilon)
        self.rng = np.random.default_rng(seed)
        self.q: dict[Hashable, list[float]] = {}
        self.learning = True
        self.start, self.n = 0, 0
        self._key: Hashable = None

    def block_start(self, block: BlockStart) -> None:
        self.learning = block.learning

    def episode_start(self, episode: EpisodeStart) -> None:
        self.start, self.n = discrete_actions(episode.action_space)
        self._key = None

    def _values(self, key: Hashable) -> list[float]:
        values = self.q.get(key)
        if values is None or len(values) != self.n:
            values = [0.0] * self.n
            if self.learning:
                self.q[key] = values
        return values

    def act(self, observation: Any) -> int:
        key = state_key(observation)
        self._key = key
        rng = self.rng
        if rng.random() < (self.epsilon if self.learning else self.eval_epsilon):
            return self.start + int(rng.integers(self.n))
        values = self._values(key)
        best = max(values)
        ties = [a for a, v in enumerate(values) if v == best]
        return self.start + (ties[0] if len(ties) == 1 else ties[int(rng.integers(len(ties)))])

    def observe(self, observation: Any, action: Any, reward: float, next_observation: Any,
                terminated: bool, truncated: bool) -> None:
        if not self.learning:
            return
        key = self._key if self._key is not None else state_key(observation)
        values = self._values(key)
        target = float(reward)
        if not terminated:
            target += self.gamma * max(self._values(state_key(next_observation)))
        a = int(action) - self.start
        values[a] += self.alpha * (target - values[a])


#: the agents ``--agent NAME`` finds without an import path
BUILTIN: dict[str, type[Agent]] = {"random": RandomAgent, "tabular-q": TabularQ}
