"""Performance profiles (Agarwal et al. 2021, section 4.1; Dolan and Moré 2002).

The score distribution of a group at threshold tau is the fraction of its run x task scores
above tau: a curve that shows the whole distribution, not one summary, and whose band comes
from the same stratified bootstrap as the aggregates. With unequal runs per task every score
weighs the same, as in the paper's "run-score distribution".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import bootstrap as bs
from .scores import ScoreSet

#: profile bands need fewer resamples than the aggregates (rliable's default as well)
PROFILE_REPS = 2000


@dataclass
class Profile:
    group: str
    taus: np.ndarray
    fraction: np.ndarray
    low: np.ndarray
    high: np.ndarray


def fraction_above(x: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """Fraction of scores above each tau, for ``x`` of shape ``(..., N)``: by sorting once and
    counting with a binary search instead of comparing every score with every tau."""
    s = np.sort(x, axis=-1)
    n = x.shape[-1]
    flat = s.reshape(-1, n)
    counts = np.stack([n - np.searchsorted(row, taus, side="right") for row in flat])
    return (counts / n).reshape(*x.shape[:-1], len(taus))


def taus_for(scores: ScoreSet, points: int = 101) -> np.ndarray:
    values = np.concatenate([g.flat() for g in scores.groups.values()] or [np.zeros(1)])
    low, high = float(values.min()), float(values.max())
    if low == high:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, points)


def profiles(scores: ScoreSet, *, seed: int, reps: int = PROFILE_REPS,
             taus: np.ndarray | None = None) -> list[Profile]:
    """Each group's score distribution with its percentile band."""
    taus = taus_for(scores) if taus is None else taus
    out = []
    for name, group in scores.groups.items():
        flat, counts = group.flat(), group.counts()
        if flat.size == 0:
            continue
        rng = bs.generator(seed, scores.metric, name, "profile")
        sample = flat[bs.stratified_indices(rng, counts, reps)]
        low, high = bs.percentile_interval(fraction_above(sample, taus))
        out.append(Profile(name, taus, fraction_above(flat, taus), low, high))
    return out
