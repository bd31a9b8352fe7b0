"""The run's log, written by l2logger's own ``DataLogger`` into RUN_DIR itself.

``DataLogger(base, scenario, ...)`` writes into ``base/<scenario>-<timestamp>``; the run's folder
is chosen by the user, so the subclass here names the scenario folder exactly (RUN_DIR's own
name) and changes nothing else: l2logger still validates every row, writes ``logger_info.json``
and ``scenario_info.json`` and lays out ``worker-default/<block>-<type>/data-log.tsv``.

l2logger opens a block's file in append mode when it exists and flushes after every row, so a
resumed run truncates each file to the size its checkpoint recorded (`truncate_to`) and then
appends: the rows after the checkpoint are written again, once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from l2logger import l2logger

if TYPE_CHECKING:
    from .plan import PlannedBlock

WORKER = "worker-default"
LOGGER_INFO = {"metrics_columns": ["reward"], "log_format_version": "1.1"}
DATA_FILE = "data-log.tsv"


class _RunDirLogger(l2logger.DataLogger):
    """A DataLogger whose scenario folder is ``base/<name>`` as given, without a timestamp."""

    def _get_log_foldername(self, path: str, format_str: str = "") -> str:
        return path


class RunLog:
    """One row per episode: reward, steps, task name and parameters, block number and type."""

    def __init__(self, run_dir: Path, scenario_info: Mapping[str, Any]) -> None:
        self.run_dir = run_dir
        self.logger = _RunDirLogger(str(run_dir.parent), run_dir.name, dict(LOGGER_INFO), dict(scenario_info))
        #: relative path -> size in bytes at the last `sizes` call, for every file written
        self.files: dict[str, int] = {}
        self._current: str | None = None

    def row(self, block: "PlannedBlock", episode: int, reward: float, steps: int) -> None:
        self.logger.log_record({
            "block_num": block.log_block,
            "exp_num": episode,
            "worker_id": WORKER,
            "block_type": block.block_type,
            "task_name": block.scheduled.task,
            "task_params": dict(block.scheduled.params),
            "reward": reward,
            "episode_step_count": steps,
        })
        rel = block_file(block)
        if rel != self._current:
            self.sizes()  # the file before is final: keep its size
            self._current = rel
            self.files.setdefault(rel, 0)

    def sizes(self) -> dict[str, int]:
        """Every file written so far and its size now (the current one is the only that grows)."""
        if self._current is not None:
            self.files[self._current] = os.path.getsize(self.run_dir / self._current)
        return dict(self.files)

    def close(self) -> None:
        self.logger.close()


def block_file(block: "PlannedBlock") -> str:
    return f"{WORKER}/{block.log_block}-{block.block_type}/{DATA_FILE}"


def truncate_to(run_dir: Path, sizes: Mapping[str, int]) -> None:
    """Cut the log back to a checkpoint: each file it knew to its size then, any other data file
    (and its folder, once empty) removed."""
    for path in sorted(run_dir.glob(f"*/*/{DATA_FILE}")):
        rel = path.relative_to(run_dir).as_posix()
        if rel in sizes:
            with open(path, "r+b") as fh:
                fh.truncate(sizes[rel])
        else:
            path.unlink()
            try:
                path.parent.rmdir()
            except OSError:
                pass
