"""Continual-imitation BWT, FWT and AUC (percent) per experiment, per entry, and pooled.

Per run, `compute` reads the phase x task score matrix back from the aligned run (the same blocks
GEM and the transfer plot use) and emits the reference text's values. `finish` sees every run at
once: it adds the pooled row (mean and 95 % interval across experiments) and, with
``-P iscil_compat=true``, replaces the per-run values with what the reference script prints
(its pooling calculator needs the experiments in order, which one run cannot see).
"""

from __future__ import annotations

import math
from typing import Any

from ..data import RunData, column
from ..needs import Need
from ..readers.iscil_info import run_info
from ..registry import Context, Parameter, Row, row
from ..score_matrix import METRICS, compat_pool, entries, from_run, global_percent, interval95

POOLED = "pooled"


def _flag(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off", ""):
        return False
    raise ValueError(text)


_flag.__name__ = "true/false"


class Iscil:
    name = "iscil"
    reads_columns = True  # reads blocks with `column` only (`sylla.metrics.data.Columns`)
    description = ("continual-imitation BWT/FWT/AUC in % (training_log.log), per experiment, "
                   "per entry and pooled with a 95 % t interval")
    emits = ("iscil_bwt", "iscil_fwt", "iscil_auc", "iscil_entries", "iscil_experiments",
             "iscil_bwt_ci95_low", "iscil_bwt_ci95_high", "iscil_fwt_ci95_low",
             "iscil_fwt_ci95_high", "iscil_auc_ci95_low", "iscil_auc_ci95_high")
    inputs = ("scores",)
    needs = {m: Need("scores") for m in emits}
    parameters = (
        Parameter("iscil_compat", False, "reproduce the reference script's printed numbers, "
                  "quirks included", type=_flag),
        Parameter("iscil_filter", "", "under a root, only experiment folders whose name "
                  "contains this"),
        Parameter("iscil_detail", False, "text output: also print the per-task detail",
                  type=_flag),
    )

    def compute(self, ctx: Context) -> list[Row]:
        if ctx.params.get("iscil_compat") or not _is_iscil(ctx.run):
            return []  # other formats' runs have per-episode data, not one score per phase
        matrix = from_run(ctx.run)
        items = entries(matrix)
        if not items:
            ctx.warn("iscil: no phase evaluates a task it trains; BWT/FWT/AUC are undefined")
            return []
        out = [row(f"iscil_{k}", v) for k, v in global_percent(items).items()]
        out.append(row("iscil_entries", len(items)))
        for e in items:
            block = matrix.train_blocks[e.phase][e.task]
            for k in METRICS:
                out.append(row(f"iscil_{k}", 100.0 * getattr(e, k), e.task, block,
                               matrix.labels[e.phase]))
        return out

    def finish(self, runs: list[RunData], params: dict[str, Any],
               rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
        """Rows (with ``run``) computed across runs, and warnings."""
        infos = [_info(r) for r in runs]
        mine = [(r, i) for r, i in zip(runs, infos) if i]
        if not mine:
            return [], []
        out: list[dict[str, Any]] = []
        warnings: list[str] = []
        if params.get("iscil_compat"):
            if any(i.get("iscil_compat") is None for _r, i in mine):
                return [], ["iscil compat: the log was read without iscil_compat, so the "
                            "reference script's reading is missing; read it through "
                            "compute_metrics(..., params={'iscil_compat': True})"]
            order = sorted(mine, key=lambda ri: ri[1]["iscil_experiment"])
            printed = compat_pool([[(list(t), {k: tuple(v) for k, v in e.items()})
                                    for t, e in i["iscil_compat"] or []] for _r, i in order])
            for (run, _unused), (totals, detail) in zip(order, printed):
                for k in METRICS:
                    out.append({**row(f"iscil_{k}", totals[k]), "run": run.run})
                out.append({**row("iscil_entries", len(detail)), "run": run.run})
                for key, values in detail.items():
                    for k in METRICS:
                        out.append({**row(f"iscil_{k}", values[k], key, phase="compat"),
                                    "run": run.run})
                if not detail:
                    warnings.append(f"run {run.run!r}: iscil compat: no train task matches an "
                                    "evaluation as the reference script names them (old-style "
                                    "names keep 'rew'); it prints 0.00 %")
            source = out
        else:
            source = rows
        per_run = {k: [r["value"] for r in source if r["metric"] == f"iscil_{k}"
                       and r.get("task") is None and r.get("value") is not None]
                   for k in METRICS}
        n = len(per_run["bwt"])
        for k in METRICS:
            mean, low, high = interval95(per_run[k])
            out.append({**row(f"iscil_{k}", mean), "run": POOLED})
            out.append({**row(f"iscil_{k}_ci95_low", low), "run": POOLED})
            out.append({**row(f"iscil_{k}_ci95_high", high), "run": POOLED})
        out.append({**row("iscil_experiments", n), "run": POOLED})
        return out, warnings

    def render_text(self, result: Any) -> str:
        """Per experiment, as the reference script prints them (2 decimals, %), the pooled
        row, and with ``-P iscil_detail=true`` each entry."""
        names = {f"iscil_{k}" for k in METRICS}
        rows = [r for r in result.records if r["metric"] in names]
        if not rows:
            return ""
        lifetime = [r for r in rows if r["task"] is None and r["block"] is None]
        lines = ["Continual-imitation metrics (%)" + (" — reference-script compat"
                                                      if result.params.get("iscil_compat")
                                                      else "")]
        width = max([len(str(r)) for r in dict.fromkeys(r["run"] for r in lifetime)] + [10])
        lines.append(f"{'experiment':<{width}}  {'BWT':>8}  {'FWT':>8}  {'AUC':>8}")
        for run, part in _groups(lifetime, "run"):
            if run == POOLED:
                continue
            v = {r["metric"]: r["value"] for r in part}
            lines.append(f"{run:<{width}}  " + "  ".join(_pct(v.get(f"iscil_{k}"))
                                                         for k in METRICS))
        pooled = [r for r in result.records if r["run"] == POOLED]
        if pooled:
            v = {r["metric"]: r["value"] for r in pooled}
            n = int(v.get("iscil_experiments") or 0)
            lines.append(f"{f'mean of {n}':<{width}}  " + "  ".join(
                _pct(v.get(f"iscil_{k}")) for k in METRICS))
            lines.append("95% t interval of the mean over experiments: " + "  ".join(
                f"{k.upper()} [{_num(v.get(f'iscil_{k}_ci95_low'))}, "
                f"{_num(v.get(f'iscil_{k}_ci95_high'))}]" for k in METRICS))
        if result.params.get("iscil_detail"):
            detail = [r for r in rows if r["task"] is not None]
            for run, part in _groups(detail, "run"):
                lines.append(f"-- per-task detail: {run}")
                for (task, phase), entry in _groups(part, "task", "phase"):
                    v = {r["metric"]: r["value"] for r in entry}
                    where = "" if phase == "compat" else f" (learned in {phase})"
                    lines.append(f"  {task}{where}: " + "  ".join(
                        f"{k.upper()} {_pct(v.get(f'iscil_{k}')).strip()}" for k in METRICS))
        return "\n".join(lines) + "\n"


def _groups(records: list[dict[str, Any]], *keys: str) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Records grouped by ``keys`` in order of first appearance (``groupby(sort=False)``)."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for r in records:
        key = r[keys[0]] if len(keys) == 1 else tuple(r[k] for k in keys)
        groups.setdefault(key, []).append(r)
    return list(groups.items())


def _info(run: RunData) -> dict[str, Any]:
    """What the iscil reader stored on the run's first block ({} for other formats)."""
    return run_info(str(column(run.blocks, "params")[0])) if len(run.blocks) else {}


def _is_iscil(run: RunData) -> bool:
    return bool(_info(run))


def _pct(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"{'—':>8}"
    return f"{float(value):>7.2f}%"


def _num(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{float(value):.2f}"
