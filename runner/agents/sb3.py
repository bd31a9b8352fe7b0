"""stable-baselines3's PPO and DQN as sylla agents (``--agent sb3-ppo`` / ``sb3-dqn``, the
``run-sb3`` extra).

SB3 owns its loop: ``model.learn()`` steps an environment and decides itself when to train.
The adapter keeps that loop intact by running ``learn()`` on a thread of its own against
`Bridge`, an environment whose ``reset`` and ``step`` hand over to the runner: the runner's
environment makes the step, the agent's ``act`` returns the action ``learn()`` chose, and its
``observe`` hands the result back. The two threads take strict turns (one waits while the
other works), so a run is as deterministic as SB3 is on one thread.

Learning off (test phases, ``disable_updates``, ``enable_updates: false``): ``learn()`` stays
parked inside the ``reset`` that follows its last episode, before it has stored that episode's
last transition or trained on it, and the agent acts with ``model.predict(deterministic=True)``
on the runner's thread. Nothing of the model changes until learning is back on.

Observations are flattened to one float vector (``gymnasium.spaces.flatten``) after dropping
the parts that are not numbers (MiniGrid's ``mission``), and the policy is ``MlpPolicy``.
``total_timesteps`` (default 100,000) sets SB3's schedules (learning rate, DQN's exploration);
``learn()`` is called again when it ends. ``torch_threads`` (default 1) is torch's thread count.
Other ``--agent-arg`` values go to the algorithm's constructor (``n_steps``, ``learning_rate``,
``buffer_size``, ...).

Resume: `save` writes the model (and the rows DQN's replay buffer holds, `sb3_buffer`); a
resumed run starts ``learn()`` afresh from those weights. SB3 keeps the rollout it is collecting on ``learn()``'s call stack,
where no checkpoint reaches, so an SB3 run resumed after a kill is not row-identical to an
uninterrupted one (the built-in agents' are).
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import EXIT_FAILED, RunError
from .base import Agent, BlockStart, EpisodeStart
from .sb3_buffer import load_buffer, save_buffer

MODEL_FILE = "sb3-model.zip"
BUFFER_FILE = "sb3-replay-buffer.npz"
#: how long the runner waits for learn()'s next move before checking the thread is alive
POLL_SECONDS = 1.0


class LearnerStopped(Exception):
    """Raised inside ``learn()`` to end its thread when the run is over."""


class Bridge(gymnasium.Env):
    """The environment ``learn()`` sees: each ``reset`` and ``step`` waits for the runner."""

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        #: runner -> learner: an observation after a reset, or a step's result
        self.inbox: queue.Queue[Any] = queue.Queue(maxsize=1)
        #: learner -> runner: ("ready", None) when parked in reset, ("action", a) from step
        self.outbox: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=1)

    def _receive(self) -> Any:
        item = self.inbox.get()
        if item is LearnerStopped:
            raise LearnerStopped
        return item

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self.outbox.put(("ready", None))
        return self._receive(), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.outbox.put(("action", action))
        obs, reward, terminated, truncated = self._receive()
        return obs, reward, terminated, truncated, {}


def _flattenable(space: spaces.Space) -> bool:
    try:
        return bool(space.is_np_flattenable)
    except NotImplementedError:  # a space of its own kind (MiniGrid's MissionSpace) says nothing
        return False


def _float_box(flat: spaces.Space) -> spaces.Box:
    assert isinstance(flat, spaces.Box), flat  # flatten_space of flattenable spaces is a Box
    return spaces.Box(flat.low.astype(np.float32), flat.high.astype(np.float32), dtype=np.float32)


def flat_space(space: spaces.Space) -> tuple[spaces.Box, Any]:
    """The flattened float observation space and the function that flattens one observation;
    a Dict's parts that cannot be flattened to numbers (MiniGrid's mission text) are left out."""
    if isinstance(space, spaces.Dict):
        kept = spaces.Dict({k: s for k, s in space.spaces.items() if _flattenable(s)})
        keys = list(kept.spaces)
        return (_float_box(spaces.flatten_space(kept)),
                lambda obs: np.asarray(spaces.flatten(kept, {k: obs[k] for k in keys}), dtype=np.float32))
    return _float_box(spaces.flatten_space(space)), lambda obs: np.asarray(spaces.flatten(space, obs), dtype=np.float32)


class SB3Agent(Agent):
    """An SB3 algorithm driven through `Bridge`; subclasses name the algorithm."""

    algorithm = ""

    def __init__(self, seed: int = 0, total_timesteps: int = 100_000, torch_threads: int = 1, **options: Any) -> None:
        super().__init__(seed)
        import stable_baselines3  # noqa: PLC0415 - lazy: torch loads only when an SB3 agent is built
        import torch  # noqa: PLC0415 - lazy: torch loads only when an SB3 agent is built

        # torch's idle worker threads spin for the CPU that the environment's thread and
        # learn()'s thread pass back and forth; small policies gain nothing from them
        torch.set_num_threads(int(torch_threads))

        self.cls = getattr(stable_baselines3, self.algorithm)
        self.total_timesteps = int(total_timesteps)
        self.options = options
        self.model: Any = None
        self.bridge: Bridge | None = None
        self.flatten: Any = None
        self.spaces: tuple[Any, Any] | None = None
        self.learning = True
        self.fresh = False
        self.parked = False
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None
        self.loaded: Path | None = None

    def block_start(self, block: BlockStart) -> None:
        self.learning = block.learning

    def episode_start(self, episode: EpisodeStart) -> None:
        if self.spaces is None:
            obs_space, self.flatten = flat_space(episode.observation_space)
            self.spaces = (episode.observation_space, episode.action_space)
            self.bridge = Bridge(obs_space, episode.action_space)
            self._build()
        elif (str(episode.observation_space), str(episode.action_space)) != tuple(map(str, self.spaces)):
            raise RunError(f"{self.algorithm} needs one observation and action space for all tasks; task "
                           f'"{episode.task}" has {episode.observation_space} and {episode.action_space}, the first '
                           f"had {self.spaces[0]} and {self.spaces[1]}", None, EXIT_FAILED)
        self.fresh = True

    def _build(self) -> None:
        assert self.bridge is not None
        if self.loaded is not None:
            self.model = self.cls.load(self.loaded / MODEL_FILE, env=self.bridge, device="cpu")
            if (self.loaded / BUFFER_FILE).exists():
                problem = load_buffer(self.model.replay_buffer, self.loaded / BUFFER_FILE)
                if problem:
                    raise RunError(problem, None, EXIT_FAILED)
        else:
            try:
                self.model = self.cls("MlpPolicy", self.bridge, seed=self.seed, device="cpu", verbose=0, **self.options)
            except TypeError as exc:
                raise RunError(f"{self.algorithm}: {exc}") from None
        self._quiet_logger()

    def _quiet_logger(self) -> None:
        """Give the model a logger that writes nowhere, unless the user asked for TensorBoard.

        Without a logger of its own, every ``learn()`` call (each time ``total_timesteps`` runs
        out, and once per process) makes SB3 create an empty ``SB3-<date>`` folder in the
        temporary directory, which runs and sweeps left behind by the hundred. ``set_logger`` must follow ``load``, which
        does not keep it.
        """
        if self.options.get("tensorboard_log"):
            return
        from stable_baselines3.common.logger import Logger  # noqa: PLC0415 - lazy, as stable_baselines3 above

        self.model.set_logger(Logger(folder=None, output_formats=[]))

    def _learn(self) -> None:
        try:
            while True:
                self.model.learn(self.total_timesteps, reset_num_timesteps=False)
        except LearnerStopped:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the runner's thread, which reports it as the agent's failure
            self.failure = exc
            self.bridge.outbox.put(("failed", None))  # type: ignore[union-attr]  # the bridge exists once learn() runs

    def _next(self, want: str) -> Any:
        """learn()'s next message, which must be ``want``; its failure raised here."""
        assert self.bridge is not None and self.thread is not None
        while True:
            try:
                kind, value = self.bridge.outbox.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if not self.thread.is_alive():
                    raise RuntimeError(f"{self.algorithm}'s learn() ended") from self.failure
                continue
            if kind == "failed":
                raise RuntimeError(f"{self.algorithm}'s learn() raised {type(self.failure).__name__}: {self.failure}")
            assert kind == want, (kind, want)
            return value

    def act(self, observation: Any) -> Any:
        x = self.flatten(observation)
        if not self.learning:
            action, _ = self.model.predict(x, deterministic=True)
            return self._action(action)
        assert self.bridge is not None
        if self.thread is None:
            self.thread = threading.Thread(target=self._learn, name=f"sb3-{self.algorithm}-learn", daemon=True)
            self.thread.start()
            self._next("ready")
            self.parked = True
        if self.fresh:
            if not self.parked:
                raise RuntimeError("an episode began while learn() was inside one")
            self.bridge.inbox.put(x)
            self.fresh = self.parked = False
        return self._action(self._next("action"))

    def _action(self, action: Any) -> Any:
        if isinstance(self.bridge.action_space if self.bridge else None, spaces.Discrete):
            return int(np.asarray(action).item())
        return action

    def observe(self, observation: Any, action: Any, reward: float, next_observation: Any,
                terminated: bool, truncated: bool) -> None:
        if not self.learning:
            return
        assert self.bridge is not None
        self.bridge.inbox.put((self.flatten(next_observation), float(reward), bool(terminated), bool(truncated)))
        if terminated or truncated:
            self._next("ready")  # learn() is parked again: nothing of the model changes until the next episode
            self.parked = True

    def save(self, folder: Path) -> None:
        if self.model is None:
            return
        self.model.save(folder / MODEL_FILE)
        if getattr(self.model, "replay_buffer", None) is not None:
            save_buffer(self.model.replay_buffer, folder / BUFFER_FILE)

    def load(self, folder: Path) -> None:
        if (folder / MODEL_FILE).exists():
            self.loaded = folder


class PPOAgent(SB3Agent):
    """stable-baselines3's PPO (Schulman et al., 2017)."""

    algorithm = "PPO"


class DQNAgent(SB3Agent):
    """stable-baselines3's DQN (Mnih et al., 2015)."""

    algorithm = "DQN"
