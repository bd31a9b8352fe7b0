"""``np.convolve(weights, values, "valid")`` on all cores, bit for bit.

Why: l2metrics' smoothing (`sylla.metrics.preprocess.l2m_smooth`) is a ``valid`` convolution
with a window of up to 100 weights, over every block of a run and of its expert runs: on a
10M-episode log about a second of one core, a third of the metrics' time (issue 24), while the
other core idles. Each output of a ``valid`` convolution is one dot product of the weights with
its own window of the values (numpy's correlate loop calls the dtype's ``dot`` once per
output), so cutting the outputs into stretches, each convolved over its own values and the
``w - 1`` after them, gives the same numbers; numpy releases the GIL while it convolves, so the
stretches run side by side on threads.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from .cores import cores

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

#: outputs per stretch below which one thread convolves (a thread hand-over costs about as
#: much as convolving a few thousand outputs)
STRETCH = 1 << 15
#: outputs convolved at a time (2 MiB of float64 temporaries per thread)
PIECE = 1 << 18


def convolve_valid(weights: np.ndarray, values: np.ndarray,
                   out: np.ndarray | None = None) -> np.ndarray:
    """``np.convolve(weights, values, mode="valid")`` for ``values`` longer than ``weights``,
    the outputs cut into one stretch per core (see the module docstring). ``out``: an array of
    the outputs' length and dtype to write them into (not overlapping ``values``), returned.

    Each stretch is convolved in pieces of at most `PIECE` outputs, so that the temporaries
    beside ``out`` are a few megabytes, not the block's length (issue 40: two cores' halves of
    a 10M-episode block were 8 bytes a value beside the result)."""
    w = weights.size
    n = values.size - w + 1
    parts = min(cores(), n // max(STRETCH, 2))
    if (parts < 2 and n <= PIECE) or w < 2 or n < 2:
        if out is None:
            return np.convolve(weights, values, mode="valid")
        out[...] = np.convolve(weights, values, mode="valid")
        return out
    parts = max(parts, 1)
    edges = [n * k // parts for k in range(parts + 1)]
    if out is None:
        out = np.empty(n, dtype=np.result_type(weights, values))
    result = out
    piece = max(PIECE, 2)

    def stretch(k: int) -> None:
        for a in range(edges[k], edges[k + 1], piece):
            # at least two outputs: values longer than the weights, so numpy does not swap
            # its operands (with as many it would, reversing each sum), and every output is
            # the same dot product as in the whole convolution
            z = min(a + piece, edges[k + 1])
            if z - a < 2:  # the stretch's last output: convolved again with the one before
                a = z - 2
            result[a:z] = np.convolve(weights, values[a:z + w - 1], mode="valid")

    pending = [_pool().submit(stretch, k) for k in range(1, parts)]
    stretch(0)
    for done in pending:
        done.result()
    return out


@functools.cache
def _pool() -> "ThreadPoolExecutor":
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - lazy: only long blocks need it

    return ThreadPoolExecutor(max(1, cores() - 1), thread_name_prefix="sylla-convolve")
