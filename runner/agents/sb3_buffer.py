"""DQN's replay buffer in a checkpoint: only the transitions it holds, not its capacity.

SB3 pickles the whole buffer, whose arrays are allocated at ``buffer_size`` (a million by
default) from the start: a DQN run on MiniGrid wrote a 1.2 GB checkpoint after four episodes.
Only rows ``[0, pos)`` (all of them once the buffer is ``full``) are ever sampled, and a loaded
model's buffer starts as zeros, so saving the filled rows and copying them back gives the same
buffer, byte for byte, at the size of what was stored. Row ``pos`` goes too: under
``optimize_memory_usage`` it holds the last transition's next observation. ``.npz`` without pickles: loading a
checkpoint runs no code from it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np

#: the arrays of SB3's ``ReplayBuffer``; ``next_observations`` is None under ``optimize_memory_usage``
FIELDS = ("observations", "next_observations", "actions", "rewards", "dones", "timeouts")


def save_buffer(buffer: Any, path: Path) -> None:
    """Write the rows ``buffer`` holds, its write position and whether it has wrapped."""
    filled = buffer.buffer_size if buffer.full else min(buffer.pos + 1, buffer.buffer_size)
    arrays = {name: getattr(buffer, name)[:filled] for name in FIELDS if getattr(buffer, name, None) is not None}
    with open(path, "wb") as fh:
        np.savez(fh, pos=np.int64(buffer.pos), full=np.bool_(buffer.full), **arrays)


def load_buffer(buffer: Any, path: Path) -> str | None:
    """Copy a saved buffer into ``buffer`` (a fresh one of the model's own size); a message
    instead when the file is not a saved buffer (cut short, damaged) or does not fit this one
    (another ``buffer_size`` or observation shape). Nothing is copied unless all of it fits."""
    try:
        with np.load(path, allow_pickle=False) as saved:
            arrays = {name: saved[name] for name in saved.files}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        return f"{path}: not a replay buffer sylla saved ({exc})"
    if not {"pos", "full"} <= arrays.keys():
        return f"{path}: not a replay buffer sylla saved (no pos or full)"
    for name in FIELDS:
        target = getattr(buffer, name, None)
        if (target is None) != (name not in arrays):
            return f"{path}: the saved replay buffer has {'no ' if name not in arrays else ''}{name}"
        rows = arrays.get(name)
        if target is not None and rows is not None and (
                rows.shape[0] > target.shape[0] or rows.shape[1:] != target.shape[1:] or rows.dtype != target.dtype):
            return (f"{path}: {name} is {rows.dtype}{list(rows.shape)}, which does not fit this model's "
                    f"buffer of {target.dtype}{list(target.shape)}")
    for name in FIELDS:
        if name in arrays:
            getattr(buffer, name)[: arrays[name].shape[0]] = arrays[name]
    buffer.pos = int(arrays["pos"])
    buffer.full = bool(arrays["full"])
    return None
