"""l2metrics' saturation of a long block (the maximum of its smoothed experience means and the
first experience reaching it) without smoothing every experience: the same two numbers as
`sylla.metrics.preprocess.l2m_saturation`, bit for bit.

Why: the saturation smooths the block's experience means with a flat window of up to 100
values, 100 multiply-adds per experience, only to keep one maximum. A followed run whose task
range moves scales every block of that task anew and takes their saturations again: on the
1M-episode bench with three rows per experience, that smoothing was a fifth of an update's
CPU (issue 40).

How, and why the numbers are the same. ``l2m_smooth``'s outputs away from the block's two
ends are ``np.convolve`` of the weights (each ``c``, ``1/w`` rounded, `window_weights`) with
``w`` consecutive means: ``e_j``, numpy's dot product of the weights and ``x[j:j+w]``. For
any order of summation, with or without fused multiply-adds, a dot product of ``w`` terms is
within ``gamma_w * sum(|c * x_k|)`` of the exact one (Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., section 3.1; ``gamma_k = k u / (1 - k u)``, ``u = 2**-53``),
so ``e_j / c`` is within ``gamma_w w m`` of the exact ``S_j = sum(x[j:j+w])`` (``m``: the
largest ``|x|``). The moving sum ``d_j`` taken from the running sums (``np.cumsum``, a
sequential sum: each prefix within ``gamma_n n m`` of the exact one, Higham section 4.2) is
within ``2 gamma_n n m + u w m`` of ``S_j`` (both prefixes, then the subtraction's rounding).
So ``|e_j / c - d_j| <= B`` for every ``j``, one bound (doubled here against any slip in the
arithmetic of the bound itself). The largest ``e_j / c`` is at least ``max(d) - B``; an
output with ``d_j < max(d) - 2B`` is below it, so it is neither the maximum nor the first
output equal to it. The others (a handful: neighbouring smoothed means differ by far more
than ``B``) are convolved exactly as ``l2m_smooth`` convolves them, and so are the outputs at
the two ends, which smooth the reflected values. The maximum of those exact values is the
maximum, and the first of them equal to it is the first output reaching it.

Only for finite means (a NaN or an infinity: the whole smoothing, as l2metrics'), blocks long
enough for the running sums to pay, and when few outputs are left to convolve (a constant
or stepped block leaves many: the whole smoothing again).
"""

from __future__ import annotations

import math

import numpy as np

from .preprocess import ROLLING_PIECE, l2m_saturation, l2m_window, reflected_ends, window_weights

#: experiences below which the whole smoothing is as cheap
SHORTEST = 4096
#: outputs left to convolve exactly above which the whole smoothing is taken instead
MOST = 64
_U = 2.0 ** -53


def _gamma(k: int) -> float:
    return k * _U / (1 - k * _U)


def l2m_peak(x: np.ndarray) -> tuple[float, float]:
    """``l2m_saturation(x)``: the maximum of `l2m_smooth` of the experience means ``x``
    (l2metrics' window for the block, flat) and the first index reaching it; see the module
    docstring for why the numbers are the same."""
    n = x.size
    w = l2m_window(n)
    if n < SHORTEST or w < 3 or x.ndim != 1 or x.dtype != np.float64:
        return l2m_saturation(x)
    largest = max(float(x.max()), -float(x.min()))  # NaN when a NaN is in
    if not largest <= 1e290:  # a NaN or an infinity, or near overflow
        return l2m_saturation(x)
    weights = window_weights("flat", w)
    sums = np.empty(n + 1)
    sums[0] = 0.0
    np.cumsum(x, out=sums[1:])
    # output j: the sum of x[j:j+w], give or take `bound`; written over the running sums a
    # piece at a time, as `rolling` does (a piece reads sums at or after its start only): no
    # second array of the block's length beside them
    m = n - w + 1
    piece = np.empty(min(ROLLING_PIECE, m))
    for i in range(0, m, ROLLING_PIECE):
        k = min(ROLLING_PIECE, m - i)
        np.subtract(sums[w + i: w + i + k], sums[i: i + k], out=piece[:k])
        sums[i: i + k] = piece[:k]
    moving = sums[:m]
    lead = float(moving.max())
    # |e_j / c - moving_j| <= bound: numpy's dot against the exact sum (gamma_w w |x|max),
    # the running sums' errors at both ends of the window (2 gamma_n n |x|max) and the
    # subtraction's rounding (u |moving_j| <= u w |x|max)
    bound = 2 * ((_gamma(w) + _U) * w * largest + 2 * _gamma(n + 1) * n * largest + 1e-300)
    candidates = np.flatnonzero(moving >= lead - 2 * bound)
    del moving, sums
    if candidates.size > MOST:
        return l2m_saturation(x)
    off = int(math.floor(w / 2 - 1))
    head, tail = reflected_ends(x, weights)  # the outputs over the reflected values
    places = [np.arange(head.size), np.arange(n - tail.size, n)]
    values = [head, tail]
    exact = np.empty(candidates.size)
    for k, j in enumerate(candidates.tolist()):
        # two outputs, as `convolve_valid` takes them: values longer than the weights, so
        # numpy does not swap its operands, and each output is the whole convolution's
        a = j if j + w + 1 <= n else j - 1
        exact[k] = np.convolve(weights, x[a: a + w + 1], mode="valid")[j - a]
    # middle output j is the smoothing's output j + w - 1 - off (`l2m_smooth`)
    places.append(candidates + (w - 1 - off))
    values.append(exact)
    where = np.concatenate(places)
    value = np.concatenate(values)
    order = np.argsort(where, kind="stable")
    where, value = where[order], value[order]
    top = np.max(value)
    if top == 0:  # which zero's sign a maximum keeps depends on the order numpy reduces in
        return l2m_saturation(x)
    return float(top), float(where[int(np.argmax(value))])
