"""The pipeline end to end: read, align, load STE data, run plugins, collect tidy rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import pandas as pd

from .align import align
from .data import EpisodeLog, RunData
from .errors import EXIT_USAGE, MetricsError
from .memory import trim
from .progress import Progress, start_clock
from .registry import Context, Metric, load_plugins, resolve_params

if TYPE_CHECKING:
    from sylla.grammar.model import Syllabus

TIDY = ["run", "task", "block", "phase", "metric", "value"]


@dataclass
class MetricsResult:
    """Tidy rows, warnings, the aligned runs and the parameters used."""

    rows: pd.DataFrame
    warnings: list[str]
    runs: list[RunData]
    ste: dict[str, list[RunData]]
    params: dict[str, Any]
    plugins: list[Metric] = field(default_factory=list)
    #: run -> task -> intermediate values the plugins recorded (`Context.detail`)
    details: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: the log's performance column the metrics were computed on
    perf: str = "reward"

    def lifetime(self) -> dict[str, float | None]:
        """Lifetime values (mean over runs when there are several)."""
        sel = self.rows[self.rows.task.isna() & self.rows.block.isna()]
        return _mean_by(sel, ["metric"])

    def tasks(self) -> dict[str, dict[str, float | None]]:
        sel = self.rows[self.rows.task.notna() & self.rows.block.isna() & self.rows.phase.isna()]
        out: dict[str, dict[str, float | None]] = {}
        for (task, metric), value in _mean_by(sel, ["task", "metric"]).items():
            out.setdefault(task, {})[metric] = value
        return out

    def blocks(self) -> list[dict[str, Any]]:
        """One entry per run and block: its structure and its block-level metric values."""
        sel = self.rows[self.rows.block.notna()]
        values: dict[tuple[str, int], dict[str, Any]] = {}
        for run, block, task, metric, value in zip(sel.run, sel.block, sel.task, sel.metric,
                                                    sel.value):
            key = (str(run), int(block))
            name = metric if task is None or "->" not in str(task) else f"{metric}[{task}]"
            values.setdefault(key, {})[name] = None if pd.isna(value) else float(value)
        out = []
        for r in self.runs:
            for b in r.blocks.itertuples(index=False):
                out.append({
                    "run": r.run, "block": int(b.block), "task": str(b.task),
                    "phase": str(b.phase), "kind": str(b.kind), "episodes": int(b.count),
                    "partial": bool(b.partial),
                    "metrics": values.get((r.run, int(b.block)), {}),
                })
        return out

    def test_matrix(self) -> dict[str, dict[str, float | None]]:
        """GEM's R: test phase label -> task -> mean test performance (first run)."""
        sel = self.rows[self.rows.metric == "test_matrix"]
        if sel.empty:
            return {}
        sel = sel[sel.run == sel.run.iloc[0]]
        out: dict[str, dict[str, float | None]] = {}
        for phase, task, value in zip(sel.phase, sel.task, sel.value):
            out.setdefault(str(phase), {})[str(task)] = None if pd.isna(value) else float(value)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"lifetime": self.lifetime(), "tasks": self.tasks(), "blocks": self.blocks(),
                "test_matrix": self.test_matrix(), "warnings": list(self.warnings)}


def _mean_by(frame: pd.DataFrame, keys: list[str]) -> dict:
    if frame.empty:
        return {}
    grouped = frame.groupby(keys, sort=False, dropna=False)["value"].mean()
    return {k: (None if pd.isna(v) else float(v)) for k, v in grouped.items()}


def compute_metrics(
    log: str | Path | EpisodeLog,
    syllabus: "str | Path | Syllabus | None" = None,
    *,
    ste: Iterable[str | Path] = (),
    ste_store: str | Path | None = None,
    ste_store_format: str = "parquet",
    perf: str | None = None,
    log_format: str | None = None,
    params: dict[str, Any] | None = None,
    allow_partial: bool = False,
    plugins: list[Metric] | None = None,
    only: Iterable[str] | None = None,
    progress: bool | None = None,
    duplicates: str = "warn",
) -> MetricsResult:
    """Compute every registered metric (or the plugins named in ``only``) on a log."""
    from .readers import read_log
    from .ste import load_ste, match_ste, store_ste
    from .syllabus import load_syllabus

    start_clock()
    all_plugins = plugins if plugins is not None else load_plugins()
    if only:
        wanted = list(only)
        names = {p.name for p in all_plugins}
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise MetricsError(f"unknown metric(s): {', '.join(unknown)} (see sylla metrics "
                               "--list)", exit_code=EXIT_USAGE)
        all_plugins = [p for p in all_plugins if p.name in wanted]
    values = resolve_params(all_plugins, params or {})
    model = None
    if syllabus is not None:
        model = syllabus if not isinstance(syllabus, (str, Path)) else load_syllabus(syllabus)
    if model is not None:
        _phase_check(model, syllabus)
    agnostic = values.get("variant_mode") == "agnostic"
    episode_log = log if isinstance(log, EpisodeLog) else read_log(
        log, perf, log_format, progress, allow_partial=allow_partial, duplicates=duplicates,
        options=values, stream=model is None and not agnostic)
    if episode_log.format == "iscil":
        from .iscil_pipeline import prepare

        model, all_plugins = prepare(episode_log, model, all_plugins, bool(only))
    if agnostic:
        _strip_variants(episode_log)
    runs, warnings = align(episode_log, model, allow_partial)
    warnings[:0] = episode_log.warnings
    log_perf = episode_log.perf
    del episode_log  # the aligned runs hold what the metrics need; free the per-episode table
    loaded = load_ste(list(ste), perf) if ste else {}
    tasks = list(dict.fromkeys(t for run in runs for t in run.tasks))
    ste_data = match_ste(loaded, tasks, agnostic=agnostic,
                         compat=bool(values.get("l2metrics_compat")))
    if ste_store is not None:
        if not loaded:
            raise MetricsError("--ste-store needs STE data from --ste", exit_code=EXIT_USAGE)
        store_ste(loaded, ste_store, ste_store_format, perf or log_perf)
    frames = []
    produced_by: dict[str, list[dict[str, Any]]] = {}
    bar = Progress(len(runs) * len(all_plugins), "computing metrics", progress)
    details: dict[str, dict[str, dict[str, Any]]] = {}
    with bar:
        for run in runs:
            details[run.run] = _run_plugins(run, ste_data, values, all_plugins, frames,
                                            warnings, len(runs), bar, produced_by)
    for plugin in all_plugins:  # plugins that aggregate across runs (e.g. a pooled row)
        if hasattr(plugin, "finish"):
            extra, notes = plugin.finish(runs, values, produced_by.get(plugin.name, []))
            warnings.extend(notes)
            if extra:
                frames.append(pd.DataFrame(extra))
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=TIDY)
    rows = rows.reindex(columns=TIDY)
    rows["block"] = rows["block"].astype("Int64")
    rows = rows.astype({"run": object, "task": object, "phase": object, "metric": object})
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce").astype(float)
    rows = _mark_partial(rows, runs)
    return MetricsResult(rows=rows, warnings=warnings, runs=runs, ste=ste_data, params=values,
                         plugins=all_plugins, details=details, perf=log_perf)


def _run_plugins(run: RunData, ste_data: dict, values: dict, all_plugins: list, frames: list,
                 warnings: list, n_runs: int, bar: "Progress",
                 produced_by: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Every plugin on one run; a plugin that fails becomes a warning, not a lost run.

    Rows of plugins that also aggregate across runs (a ``finish`` method) are kept in
    ``produced_by`` for that second step. Returns the details the plugins recorded."""
    ctx = Context(run=run, ste=ste_data, params=values)
    for plugin in all_plugins:
        try:
            produced = list(plugin.compute(ctx))
        except MetricsError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failing plugin must not hide the rest
            ctx.warn(f"{plugin.name}: failed ({type(exc).__name__}: {exc})")
            produced = []
        finally:
            bar.step()
            trim()  # a plugin's task-sized arrays are gone: let the next one reuse the pages
        if hasattr(plugin, "finish"):
            produced_by.setdefault(plugin.name, []).extend({**r, "run": run.run} for r in produced)
        if produced:
            frame = pd.DataFrame(produced)
            frame.insert(0, "run", run.run)
            frames.append(frame)
    if run.partial:
        partial = set(run.blocks.block[run.blocks.partial].astype(int))
        ctx.warn(f"run {run.run!r}: log ends early; blocks {sorted(partial)} are partial and "
                 "every task and lifetime metric that uses them is affected")
    warnings.extend(w if run.run in w or n_runs == 1 else f"run {run.run!r}: {w}"
                    for w in ctx.warnings)
    return ctx.details


def _mark_partial(rows: pd.DataFrame, runs: list[RunData]) -> pd.DataFrame:
    """Add a ``partial`` flag: block rows of partial blocks, and task/lifetime rows of a run that
    ended early (a crashed run's aggregates are not comparable to a complete one's)."""
    flags = pd.Series(False, index=rows.index)
    for run in runs:
        if not run.partial:
            continue
        partial_blocks = set(run.blocks.block[run.blocks.partial].astype(int))
        mine = rows.run == run.run
        in_block = rows.block.isin(partial_blocks).fillna(False).astype(bool)
        flags |= mine & (in_block | rows.block.isna())
    rows["partial"] = flags.to_numpy()
    return rows


def _phase_check(model: "Syllabus", source: Any) -> None:
    """Refuse a syllabus without ``$phase``, with the words ``sylla explain`` uses: the seed
    text requires phase annotations, and without them no train/test split can be trusted."""
    from sylla.grammar.syllabus_type import infer_type

    if not model.phases:
        reason = infer_type(model).reason
        raise MetricsError(f"{reason} (P308; add {{\"$phase\": \"1.train\"}} / "
                           "{\"$phase\": \"1.test\"} annotations)",
                           str(source) if isinstance(source, (str, Path)) else None)


def variant_base(task: str) -> str:
    """The task of an l2logger ``<task>_<variant>`` name, as l2metrics' agnostic mode cuts it."""
    return str(task).split("_")[0]


def _strip_variants(log: EpisodeLog) -> None:
    """Variant-agnostic mode: every task name becomes its base task (before alignment, so
    adjacent blocks of two variants of one task become one block, as l2metrics' regimes do).
    Base names compare case-insensitively (``Alpha_V0`` and ``alpha_v1`` are one task), and
    keep the spelling first seen."""
    if "task" not in log.frame.columns:
        return
    column = log.frame["task"]
    spelling: dict[str, str] = {}

    def base(task: object) -> str:
        name = variant_base(str(task))
        return spelling.setdefault(name.lower(), name)

    if isinstance(column.dtype, pd.CategoricalDtype):
        bases = [base(c) for c in column.cat.categories]
        codes = pd.Categorical(bases)
        log.frame["task"] = pd.Categorical.from_codes(
            codes.codes[column.cat.codes.to_numpy()], codes.categories)
    else:
        log.frame["task"] = column.astype(str).map(base)
