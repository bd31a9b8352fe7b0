"""The episode loop: the plan's blocks, episode by episode, through the agent's events.

The inner loop is the only code that runs per step, so it holds the agent's and environment's
methods in locals and checks an action with one comparison where the action space is Discrete.
A failure names the episode, the task and the syllabus line; every row already written is a
whole episode, so the log stays readable up to the last complete one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .agents.base import BlockStart, EpisodeStart
from .checkpoint import episode_seed
from .errors import EXIT_FAILED, RunError

if TYPE_CHECKING:
    from .agents.base import Agent
    from .log import RunLog
    from .plan import Plan, PlannedBlock


class Stop(Exception):
    """Ctrl-C was pressed: the loop stopped after a whole episode and a checkpoint."""

    def __init__(self, episode: int) -> None:
        super().__init__(episode)
        self.episode = episode


def action_check(space: Any) -> Callable[[Any], bool]:
    """Whether an action is in the space: one comparison for a Discrete space and a plain int."""
    contains = space.contains
    n = getattr(space, "n", None)
    if n is not None and getattr(space, "shape", None) == ():
        lo = int(getattr(space, "start", 0))
        hi = lo + int(n)
        return lambda a: (type(a) is int and lo <= a < hi) or contains(a)
    return contains


def _where(b: "PlannedBlock", episode: int) -> str:
    return f'episode {episode} (task "{b.scheduled.task}", block at {b.where})'


def run_episodes(plan: "Plan", envs: dict[str, Any], agent: "Agent", log: "RunLog", seed: int, start: int,
                 checkpoint: Callable[[int], None], every: int, stop: Callable[[], bool],
                 progress: Callable[[int], None]) -> None:
    """Run episodes ``start`` to the end; ``checkpoint(next_episode)`` every ``every`` episodes
    and when ``stop()`` turns true (then `Stop` is raised)."""
    since = 0
    for b in plan.blocks[plan.block_of(start):]:
        sb = b.scheduled
        first = max(sb.start, start)
        env = envs[b.env_key]
        learning = b.learning
        block = BlockStart(b.log_block, sb.task, sb.params, learning, sb.count)
        if first == sb.start:
            agent.block_start(block)
        obs_space, act_space = env.observation_space, env.action_space
        valid = action_check(act_space)
        reset, step = env.reset, env.step
        act, observe = agent.act, agent.observe
        for episode in range(first, sb.end):
            doing = "reset"
            try:
                obs, _ = reset(seed=episode_seed(seed, episode))
                doing = "agent"
                agent.episode_start(EpisodeStart(episode, sb.task, sb.params, obs_space, act_space, learning))
                total, steps = 0.0, 0
                while True:
                    doing = "agent"
                    action = act(obs)
                    if not valid(action):
                        raise RunError(f"{_where(b, episode)}, step {steps + 1}: the agent returned {action!r}, "
                                       f"which is not in the action space {act_space}", None, EXIT_FAILED)
                    doing = "step"
                    nxt, reward, terminated, truncated, _ = step(action)
                    total += reward
                    steps += 1
                    doing = "agent"
                    observe(obs, action, reward, nxt, terminated, truncated)
                    if terminated or truncated:
                        break
                    obs = nxt
                agent.episode_end(total, steps)
            except RunError:
                raise
            except Exception as exc:  # the environment's or agent's own code failed: name the episode, not a traceback
                who = "the agent" if doing == "agent" else f"the environment's {doing}()"
                at = f", step {steps + 1}" if doing == "step" else ""
                raise RunError(f"{_where(b, episode)}{at}: {who} raised {type(exc).__name__}: {exc}",
                               None, EXIT_FAILED) from exc
            log.row(b, episode, float(total), steps)
            progress(episode + 1)
            if episode + 1 == sb.end:
                agent.block_end(block)
            since += 1
            stopping = stop()
            if since >= every or stopping:
                checkpoint(episode + 1)
                since = 0
            if stopping and episode + 1 < plan.episodes:
                raise Stop(episode + 1)
