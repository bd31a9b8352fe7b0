"""The phase x task score matrix of an evaluation-only run, and the continual-imitation metrics
over it (BWT, FWT, AUC as the continual-imitation reference text defines them).

s_t(p) is task t's normalised score (raw / max) in phase p. For each phase p and each train task
t of p evaluated in p (one *entry*; a task trained again later gets another): FWT = s_t(p);
BWT = mean over later phases f evaluating t of s_t(f) - s_t(p) (0 if none); AUC = mean of s_t(f)
over f >= p evaluating t. Global values are 100 x the mean over entries.

`compat_pool` replays what the reference script prints instead: one calculator reused across the
experiments, so each experiment's numbers pool every earlier one and repeated keys overwrite.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .data import RunData, column

METRICS = ("bwt", "fwt", "auc")


@dataclass
class ScoreMatrix:
    """Kept phases in order: their labels (``k.train``), train tasks, the train block of each
    train task, and ``scores[p][task]`` (tasks evaluated in phase p only)."""

    labels: list[str]
    train: list[list[str]]
    train_blocks: list[dict[str, int]]
    scores: list[dict[str, float]]


@dataclass(frozen=True)
class Entry:
    """One (phase, train task) pair, its values as fractions (not percent)."""

    phase: int
    task: str
    bwt: float
    fwt: float
    auc: float


def from_run(run: RunData) -> ScoreMatrix:
    """Read the matrix back from an aligned run: a phase is a run of train blocks and the test
    blocks after it; a test block's (single) value is s_t(p)."""
    b = run.blocks
    m = ScoreMatrix([], [], [], [])
    previous = None
    for block, kind, task, phase, start, stop in zip(*(column(b, c) for c in (
            "block", "kind", "task", "phase", "start", "stop"))):
        if kind == "train" and previous != "train":
            m.labels.append(str(phase))
            m.train.append([])
            m.train_blocks.append({})
            m.scores.append({})
        previous = kind
        if not m.labels:
            continue
        if kind == "train":
            if task not in m.train_blocks[-1]:
                m.train[-1].append(str(task))
                m.train_blocks[-1][str(task)] = int(block)
        else:
            values = run.perf[int(start):int(stop)]
            m.scores[-1][str(task)] = float(values[-1]) if values.size else math.nan
    return m


def entries(m: ScoreMatrix) -> list[Entry]:
    out = []
    n = len(m.labels)
    for p in range(n):
        for task in m.train[p]:
            if task not in m.scores[p]:
                continue
            learned = m.scores[p][task]
            later = [m.scores[f][task] for f in range(p + 1, n) if task in m.scores[f]]
            bwt = float(np.mean([s - learned for s in later])) if later else 0.0
            auc = float(np.mean([learned] + later))
            out.append(Entry(p, task, bwt, learned, auc))
    return out


def global_percent(items: list[Entry]) -> dict[str, float]:
    """100 x the mean over entries; NaN when there is no entry (never a silent 0)."""
    if not items:
        return {k: math.nan for k in METRICS}
    return {k: 100.0 * float(np.mean([getattr(e, k) for e in items])) for k in METRICS}


CompatPhase = tuple[list[str], dict[str, tuple[float, float]]]


def compat_pool(experiments: list[list[CompatPhase]]) -> list[tuple[dict[str, float],
                                                                     dict[str, dict[str, float]]]]:
    """For each experiment in order: the global percentages the reference script prints after
    it, and its per-key detail (percent), both over the calculator's pooled entries."""
    pooled: dict[str, tuple[float, float, float]] = {}
    out = []
    for phases in experiments:
        n = len(phases)
        for p, (train, evals) in enumerate(phases):
            for task in train:
                if task not in evals:
                    continue
                key = task if task not in pooled else f"{task}_{p}"
                raw, top = evals[task]
                learned = raw / top
                diffs, seen = [], []
                for f in range(p, n):
                    if task not in phases[f][1]:
                        continue
                    r, t = phases[f][1][task]
                    s = r / t
                    if f != p:
                        diffs.append(s - learned)
                    seen.append(s)
                if p == n - 1:
                    bwt, auc = 0.0, (seen[0] if seen else 0.0)
                else:
                    bwt = float(np.mean(diffs)) if diffs else 0.0
                    auc = float(np.mean(seen)) if seen else 0.0
                pooled[key] = (bwt, learned, auc)
        sums = [0.0, 0.0, 0.0]
        for values in pooled.values():
            for i in range(3):
                sums[i] += values[i]
        k = len(pooled)
        totals = {name: (sums[i] / k * 100 if k else 0.0) for i, name in enumerate(METRICS)}
        detail = {key: {name: v[i] * 100 for i, name in enumerate(METRICS)}
                  for key, v in sorted(pooled.items())}
        out.append((totals, detail))
    return out


#: t(0.975, df) for df = 1..60, as ``scipy.stats.t.ppf`` gives them (a test checks): the pooled
#: interval of a few experiments then needs no scipy import, which costs more than the rest of
#: ``sylla metrics`` on a continual-imitation log (issue 24)
T975 = (
    12.706204736174694, 4.302652729749462, 3.1824463052837078, 2.7764451051977934,
    2.5705818356363146, 2.4469118511449786, 2.364624251592784, 2.306004135204166,
    2.262157162798205, 2.228138851986274, 2.200985160091639, 2.1788128296672284,
    2.1603686564627913, 2.144786687917804, 2.131449545559776, 2.1199052992212546,
    2.1098155778333156, 2.1009220402410382, 2.0930240544083087, 2.085963447265864,
    2.0796138447276795, 2.0738730679040254, 2.0686576104190486, 2.0638985616280245,
    2.0595385527532972, 2.0555294386428735, 2.0518305164802846, 2.0484071417952454,
    2.045229642132703, 2.0422724563012378, 2.039513446396408, 2.0369333434601016,
    2.0345152974493383, 2.0322445093177186, 2.030107928250343, 2.0280940009804502,
    2.0261924630291093, 2.0243941639119694, 2.022690920036761, 2.021075390306273,
    2.019540970441376, 2.0180817028184443, 2.016692199227824, 2.0153675744437636,
    2.014103388880846, 2.012895598919429, 2.0117405137297655, 2.010634757624232,
    2.0095752371292392, 2.008559112100761, 2.007583770315836, 2.006646805061688,
    2.0057459953178687, 2.0048792881880564, 2.0040447832891455, 2.003240718847872,
    2.002465459291007, 2.0017174841452356, 2.000995378088267, 2.0002978220142604,
)


def t975(df: int) -> float:
    """The two-sided 95 % Student-t critical value for ``df`` degrees of freedom."""
    if 1 <= df <= len(T975):
        return T975[df - 1]
    from scipy.stats import t  # noqa: PLC0415 - lazy: start-up, scipy loads only when used

    return float(t.ppf(0.975, df))


def interval95(values: list[float]) -> tuple[float, float, float]:
    """Mean and the two-sided 95 % Student-t confidence interval of the mean,
    mean ± t(0.975, n-1) · s / sqrt(n) (NIST/SEMATECH e-Handbook of Statistical Methods,
    §7.2.2.1). NaN bounds for fewer than two values."""
    x = np.asarray([v for v in values if not math.isnan(v)], dtype=float)
    if x.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(np.mean(x))
    if x.size < 2:
        return mean, math.nan, math.nan
    half = float(t975(x.size - 1) * np.std(x, ddof=1) / math.sqrt(x.size))
    return mean, mean - half, mean + half
