"""The L2M ``$minigridkit:`` task names and their Farama MiniGrid counterparts.

learnkit's MiniGrid kit is not public; each name was matched to the nearest environment of the
``minigrid`` package on Gymnasium 1.x from the public l2metrics example runs that ship their
syllabus (the success reward ``1 - 0.9 * steps / max_steps`` gives each environment's
``max_steps``, the agent's last position its goal cell). docs/run.md gives the table with the
evidence for each row. The L2M syllabi's ``agent_pos`` is the start position: MiniGrid's
``agent_start_pos`` for the empty rooms and DistShift, ``agent_pos`` itself for FourRooms; the
crossing environments have no start argument and always start at (1, 1).
"""

from __future__ import annotations

from .spec import Param, TaskSpec

MODULE = "minigridkit"
_ORIGIN = "L2M $minigridkit: name"
_START = {"agent_pos": Param("agent_start_pos", "array", description="the agent's start cell [x, y]")}
_CROSSING_START = {"agent_pos": Param(None, "array", choices=([1, 1],),
                                      why="MiniGrid's crossing environments always start at [1, 1]")}


def _task(name: str, env_id: str, params: dict[str, Param] | None = None) -> TaskSpec:
    return TaskSpec(name, _ORIGIN, env_id=env_id, params=params or {}, module=MODULE)


#: name -> spec, in the order of docs/run.md's table
TASKS: dict[str, TaskSpec] = {t.name: t for t in (
    _task("Minigrid5x5", "MiniGrid-Empty-5x5-v0", _START),
    _task("Minigrid6x6", "MiniGrid-Empty-6x6-v0", _START),
    _task("Minigrid8x8", "MiniGrid-Empty-8x8-v0", _START),
    _task("Minigrid16x16", "MiniGrid-Empty-16x16-v0", _START),
    _task("MinigridFourRooms", "MiniGrid-FourRooms-v0"),
    _task("MinigridSimpleCrossing", "MiniGrid-SimpleCrossingS9N1-v0", _CROSSING_START),
    _task("MinigridLava1", "MiniGrid-DistShift1-v0", _START),
    _task("MinigridLava2", "MiniGrid-DistShift2-v0", _START),
)}
