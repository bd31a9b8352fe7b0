"""GEM-style ACC, BWT and FWT (Lopez-Paz & Ranzato, "Gradient Episodic Memory for Continual
Learning", NeurIPS 2017, section 2 and the metrics script of its reference code).

The test-performance matrix ``R[i][j]`` is the mean performance on task ``j`` in the test phase
that closes task ``i``'s training. GEM trains each task once; when a syllabus revisits a task,
sylla orders tasks by their *last* training and takes row ``i`` from the last test phase after
task ``i``'s last training block and before the next training of another task (the final test
phase for the last one), so relearning a task is not counted as backward transfer to it; a
warning says the syllabus revisits. ``b[j]`` comes from a test phase before any training. The paper averages BWT and FWT over ``T - 1`` terms; the published code takes the mean
of a length-``T`` vector whose unused entry is 0, i.e. divides by ``T``. Both are given, labelled.
"""

from __future__ import annotations

import math

import numpy as np

from ..data import RunData, column
from ..needs import Need
from ..registry import Context, Row, row


def phase_tests(run: RunData) -> list[tuple[str, int, dict[str, float]]]:
    """Consecutive test blocks grouped: (label, first block position, task -> mean perf)."""
    b = run.blocks
    phases: list[tuple[str, int, dict[str, list[np.ndarray]]]] = []
    previous_test = False
    for i, (kind, task, phase, a, z) in enumerate(zip(
            column(b, "kind"), column(b, "task"), column(b, "phase"), column(b, "start"),
            column(b, "stop"))):
        if kind == "test":
            if not previous_test:
                phases.append((str(phase), i, {}))
            phases[-1][2].setdefault(str(task), []).append(run.perf[a:z])
        previous_test = kind == "test"
    return [(label, pos, {t: float(np.mean(np.concatenate(v))) for t, v in d.items()})
            for label, pos, d in phases]


def performance_matrix(run: RunData) -> tuple[list[str], np.ndarray, np.ndarray, list[str]]:
    """(task order, R, baseline b, the label of each row's test phase)."""
    b = run.blocks
    kinds = column(b, "kind")
    tasks = column(b, "task").astype(str)
    train_pos = np.flatnonzero(kinds == "train")
    last_train: dict[str, int] = {}
    for pos in train_pos:
        last_train[tasks[pos]] = int(pos)
    order = sorted(last_train, key=last_train.__getitem__)
    phases = phase_tests(run)
    T = len(order)
    R = np.full((T, T), np.nan)
    base = np.full(T, np.nan)
    labels = [""] * T
    if phases and T and train_pos.size and phases[0][1] < train_pos[0]:
        for j, t in enumerate(order):
            base[j] = phases[0][2].get(t, np.nan)
    for i, task in enumerate(order):
        start = last_train[task]
        later = train_pos[(train_pos > start) & (tasks[train_pos] != task)]
        end = int(later[0]) if later.size else len(b)
        chosen = [p for p in phases if start < p[1] < end]
        if i + 1 == T:
            chosen = [p for p in phases if p[1] > start]
        if chosen:
            label, _pos, values = chosen[-1]
            labels[i] = label
            for j, t in enumerate(order):
                R[i, j] = values.get(t, np.nan)
    return order, R, base, labels


def revisited(run: RunData) -> list[str]:
    """Tasks trained in more than one stretch (another task trained in between)."""
    b = run.blocks
    trained = column(b, "task")[column(b, "kind") == "train"].astype(str).tolist()
    stretches = [t for k, t in enumerate(trained) if k == 0 or trained[k - 1] != t]
    return sorted({t for t in stretches if stretches.count(t) > 1})


class Gem:
    name = "gem"
    description = "GEM ACC/BWT/FWT over the test-performance matrix (paper: T-1, code: T)"
    emits = ("gem_acc", "gem_bwt_paper", "gem_bwt_code", "gem_fwt_paper", "gem_fwt_code",
             "test_matrix", "test_matrix_baseline")
    inputs = ("log", "tests")
    needs = {"gem_acc": Need("gem_final_row"), "gem_bwt_paper": Need("gem_diagonal"),
             "gem_bwt_code": Need("gem_diagonal"), "gem_fwt_paper": Need("gem_forward"),
             "gem_fwt_code": Need("gem_forward"), "test_matrix": Need("gem_matrix"),
             "test_matrix_baseline": Need("gem_baseline")}
    parameters = ()
    reads_columns = True  # reads blocks with `column` only (`sylla.metrics.data.Columns`)

    def compute(self, ctx: Context) -> list[Row]:
        order, R, base, labels = performance_matrix(ctx.run)
        again = revisited(ctx.run)
        if again:
            ctx.warn(f"gem: the syllabus trains {', '.join(again)} more than once; GEM assumes "
                     "each task is learned once, so R uses each task's last training (relearning "
                     "is not backward transfer) and FWT's R[i-1][i] may follow an earlier visit")
        T = len(order)
        out: list[Row] = []
        if T == 0 or np.isnan(R).all():
            ctx.warn("gem: no test phase follows a training phase; ACC/BWT/FWT need the "
                     "test-performance matrix")
            return out
        for i in range(T):
            for j in range(T):
                if not math.isnan(R[i, j]):
                    out.append(row("test_matrix", R[i, j], order[j], phase=labels[i]))
        for j in range(T):
            if not math.isnan(base[j]):
                out.append(row("test_matrix_baseline", base[j], order[j]))
        final = R[T - 1]
        out.append(row("gem_acc", float(np.mean(final))))
        if T > 1:
            bwt = final[: T - 1] - np.diag(R)[: T - 1]
            out.append(row("gem_bwt_paper", float(np.sum(bwt)) / (T - 1)))
            out.append(row("gem_bwt_code", float(np.sum(bwt)) / T))
            fwt = np.array([R[j - 1, j] - base[j] for j in range(1, T)])
            if np.isnan(base[1:]).any():
                ctx.warn("gem: FWT needs a test phase before any training (the baseline b)")
            out.append(row("gem_fwt_paper", float(np.sum(fwt)) / (T - 1)))
            out.append(row("gem_fwt_code", float(np.sum(fwt)) / T))
        else:
            ctx.warn("gem: BWT and FWT need at least two trained tasks")
        for message in _missing_entries(order, R, labels):
            ctx.warn(message)
        return out


def _missing_entries(order: list[str], R: np.ndarray, labels: list[str]) -> list[str]:
    """Why entries of R are missing, by cause: a training no test phase follows (the whole
    row is missing), or a test phase that does not test some task (single entries)."""
    messages = []
    untested = [order[i] for i in range(len(order)) if not labels[i]]
    if untested:
        messages.append(f"gem: no test phase follows the training of {', '.join(untested)} "
                        "(before the next task's training or the end of the log); their rows "
                        "of R are missing")
    gaps = [f"{order[j]} in {labels[i]}" for i in range(len(order)) if labels[i]
            for j in range(len(order)) if math.isnan(R[i, j])]
    if gaps:
        messages.append(f"gem: some test phases do not test every task ({', '.join(gaps[:5])}"
                        f"{', ...' if len(gaps) > 5 else ''}); those entries of R are missing")
    return messages
