"""The pipeline end to end: read, align, load STE data, run plugins, collect tidy rows.

The tidy rows are kept as plain records and the JSON and text summaries are computed from them
in plain Python (means as pandas computes them, `_mean`); the `MetricsResult.rows` DataFrame is
built only when asked for (CSV/Parquet output, a sweep). So a log whose reader needs no pandas
(a continual-imitation log) is measured without importing it (issue 24)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from .data import Columns, EpisodeLog, RunData, column, variant_base, with_frames
from .errors import EXIT_USAGE, MetricsError
from .memo import NO_MEMO, Memo, RunMemo
from .memory import reads_together, trim
from .progress import Progress
from .readers import read_log, reader_for
from .registry import Context, Metric, load_plugins, optional, resolve_params

if TYPE_CHECKING:
    import pandas as pd

    from sylla.grammar.syllabus.model import Syllabus

TIDY = ["run", "task", "block", "phase", "metric", "value"]


@dataclass
class MetricsResult:
    """Tidy rows, warnings, the aligned runs and the parameters used.

    ``records`` are the tidy rows as dicts (``TIDY`` keys and ``partial``; a missing value is
    None); `rows` is the same table as a DataFrame."""

    records: list[dict[str, Any]]
    warnings: list[str]
    runs: list[RunData]
    ste: dict[str, list[RunData]]
    params: dict[str, Any]
    plugins: list[Metric] = field(default_factory=list)
    #: run -> task -> intermediate values the plugins recorded (`Context.detail`)
    details: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: the log's performance column the metrics were computed on
    perf: str = "reward"
    _rows: "pd.DataFrame | None" = field(default=None, repr=False, compare=False)

    @property
    def rows(self) -> "pd.DataFrame":
        """The tidy rows as a DataFrame: ``block`` as nullable Int64, ``value`` float (NaN for
        missing), a bool ``partial``."""
        if self._rows is None:
            self._rows = _frame(self.records)
        return self._rows

    def lifetime(self) -> dict[str, float | None]:
        """Lifetime values (mean over runs when there are several)."""
        sel = [r for r in self.records if r["block"] is None and _missing(r["task"])]
        return _mean_by(sel, ("metric",))

    def tasks(self) -> dict[str, dict[str, float | None]]:
        sel = [r for r in self.records if r["block"] is None and not _missing(r["task"])
               and _missing(r["phase"])]
        out: dict[str, dict[str, float | None]] = {}
        for (task, metric), value in _mean_by(sel, ("task", "metric")).items():
            out.setdefault(task, {})[metric] = value
        return out

    def blocks(self) -> list[dict[str, Any]]:
        """One entry per run and block: its structure and its block-level metric values."""
        values: dict[tuple[str, int], dict[str, Any]] = {}
        for r in self.records:
            if r["block"] is None:
                continue
            task = r["task"]
            key = (str(r["run"]), int(r["block"]))
            name = (r["metric"] if task is None or "->" not in str(task)
                    else f"{r['metric']}[{task}]")
            values.setdefault(key, {})[name] = r["value"]
        out = []
        for run in self.runs:
            b = run.blocks
            # as Python objects first: a column's numpy scalars cost a conversion each
            for block, task, phase, kind, count, partial in zip(*(column(b, c).tolist() for c in (
                    "block", "task", "phase", "kind", "count", "partial"))):
                out.append({
                    "run": run.run, "block": int(block), "task": str(task),
                    "phase": str(phase), "kind": str(kind), "episodes": int(count),
                    "partial": bool(partial),
                    "metrics": values.get((run.run, int(block)), {}),
                })
        return out

    def test_matrix(self) -> dict[str, dict[str, float | None]]:
        """GEM's R: test phase label -> task -> mean test performance (first run)."""
        sel = [r for r in self.records if r["metric"] == "test_matrix"]
        if not sel:
            return {}
        first = sel[0]["run"]
        out: dict[str, dict[str, float | None]] = {}
        for r in sel:
            if r["run"] == first:
                out.setdefault(str(r["phase"]), {})[str(r["task"])] = r["value"]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"lifetime": self.lifetime(), "tasks": self.tasks(), "blocks": self.blocks(),
                "test_matrix": self.test_matrix(), "warnings": list(self.warnings)}


def _missing(value: Any) -> bool:
    """What pandas' ``isna`` says of a cell: None or a float NaN."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _key(value: Any) -> Any:
    """A group key as pandas' ``groupby(dropna=False)`` sees it: every missing value is one."""
    return None if _missing(value) else value


def _mean_by(records: list[dict[str, Any]], keys: tuple[str, ...]) -> dict:
    """Mean ``value`` per group, groups in order of first appearance, missing values skipped,
    None for a group with none: ``groupby(keys, sort=False, dropna=False)["value"].mean()``
    bit for bit. A mean of one or two values is exact in any summation order; pandas sums
    longer groups its own way (compensated, not reproduced by Kahan or Neumaier steps in its
    3.x), so those groups are left to pandas itself."""
    groups: dict[Any, list[float]] = {}
    for r in records:
        key = _key(r[keys[0]]) if len(keys) == 1 else tuple(_key(r[k]) for k in keys)
        values = groups.setdefault(key, [])
        if r["value"] is not None and not math.isnan(r["value"]):
            values.append(r["value"])
    if any(len(v) > 2 for v in groups.values()):
        return _pandas_mean_by(records, list(keys))
    out: dict[Any, float | None] = {}
    for key, values in groups.items():
        mean = sum(values) / len(values) if values else math.nan
        out[key] = None if math.isnan(mean) else float(mean)
    return out


def _pandas_mean_by(records: list[dict[str, Any]], keys: list[str]) -> dict:
    import pandas as pd  # noqa: PLC0415 - lazy: start-up, pandas loads only when used

    frame = _frame(records)
    grouped = frame.groupby(keys, sort=False, dropna=False)["value"].mean()
    return {(None if pd.isna(k) else k) if len(keys) == 1
            else tuple(None if pd.isna(x) else x for x in k): (None if pd.isna(v) else float(v))
            for k, v in grouped.items()}


def _frame(records: list[dict[str, Any]]) -> "pd.DataFrame":
    """The records as the tidy DataFrame."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up, pandas loads only when used

    rows = pd.DataFrame.from_records(records, columns=TIDY + ["partial"]) if records else \
        pd.DataFrame(columns=TIDY + ["partial"])
    rows["block"] = rows["block"].astype("Int64")
    rows = rows.astype({"run": object, "task": object, "phase": object, "metric": object})
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce").astype(float)
    rows["partial"] = rows["partial"].astype(bool)
    return rows


def compute_metrics(
    log: str | Path | EpisodeLog,
    syllabus: "str | Path | Syllabus | None" = None,
    *,
    ste: "Iterable[str | Path] | Mapping[str, list[RunData]]" = (),
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
    memo: "Memo | None" = None,
) -> MetricsResult:
    """Compute every registered metric (or the plugins named in ``only``) on a log.

    ``ste``: the STE runs' paths, or their runs as `sylla.metrics.ste.load_ste` returns them
    (task -> runs: ``sylla watch`` reads them once, not at every update).
    ``memo`` (`sylla.metrics.memo.BlockMemo`): per-block values kept from the last computation
    of the same single run (``sylla watch``), for the blocks whose rows did not change since
    (`BlockMemo.admit`); not used when the log has several runs."""
    # the progress delay counts from the first bar (the reading), not from here: the reader's
    # own imports (pandas, pyarrow) load after this point now, and are no progress to show
    wanted = list(only) if only else []
    all_plugins = _chosen(plugins if plugins is not None else load_plugins(), wanted)
    values = resolve_params(all_plugins, params or {})
    model = _model(syllabus)
    agnostic = values.get("variant_mode") == "agnostic"
    # the log, then its expert runs: each reading's freed memory serves the next (`reads_together`)
    with reads_together():
        episode_log = log if isinstance(log, EpisodeLog) else read_log(
            log, perf, log_format, progress, allow_partial=allow_partial, duplicates=duplicates,
            options=values, stream=not agnostic)
        model, all_plugins = _joined(episode_log, model, all_plugins, bool(wanted), agnostic)
        warnings: list[str]
        if episode_log.runs is not None and model is None:
            runs, warnings = episode_log.runs, []  # what `align` returns for them
        else:
            from .align import align  # noqa: PLC0415 - lazy: loads only for logs that need aligning with a syllabus

            runs, warnings = align(episode_log, model, allow_partial)
        warnings[:0] = episode_log.warnings
        log_perf = episode_log.perf
        del episode_log  # the aligned runs hold what the metrics need; free the per-episode table
        if ste_store is not None or not all(optional(p, "reads_columns") for p in all_plugins):
            for run in runs:  # a pandas-free block table, for code that reads DataFrames
                with_frames(run)
        ste_data = _expert_runs(ste if isinstance(ste, Mapping) else list(ste), runs, perf,
                                values, agnostic, ste_store, ste_store_format, log_perf)
    records, details = _computed(runs, ste_data, values, all_plugins, warnings, progress, memo)
    return MetricsResult(records=records, warnings=warnings, runs=runs, ste=ste_data,
                         params=values, plugins=all_plugins, details=details, perf=log_perf)


def _chosen(plugins: list[Metric], wanted: list[str]) -> list[Metric]:
    """The plugins ``--metric`` names (all when it names none); an unknown name is an error."""
    if not wanted:
        return plugins
    names = {p.name for p in plugins}
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise MetricsError(f"unknown metric(s): {', '.join(unknown)} (see sylla metrics "
                           "--list)", exit_code=EXIT_USAGE)
    return [p for p in plugins if p.name in wanted]


def _model(syllabus: "str | Path | Syllabus | None") -> "Syllabus | None":
    """The syllabus model (read from its file when given one), refused without phases."""
    if syllabus is None:
        return None
    if isinstance(syllabus, (str, Path)):
        from .syllabus import load_syllabus  # noqa: PLC0415 - lazy: the syllabus parser loads only when a syllabus file is given

        model = load_syllabus(syllabus)
    else:
        model = syllabus
    _phase_check(model, syllabus)
    return model


def _joined(log: EpisodeLog, model: "Syllabus | None", plugins: list[Metric], only_given: bool,
            agnostic: bool) -> tuple["Syllabus | None", list[Metric]]:
    """The log joins the pipeline as its reader declares (`sylla.metrics.readers.Reader`): a
    reader that checks the syllabus itself leaves none to align with, a log that carries only
    some plugin inputs runs only the plugins that read them (unless ``--metric`` names others),
    and in variant-agnostic mode runs built from the table are dropped before its tasks are
    renamed. Returns the model to align with and the plugins to run."""
    reader = reader_for(log.format)
    if model is not None and reader.checks_syllabus(log, model):
        model = None  # checked: alignment needs no syllabus
    if reader.provides is not None and not only_given:
        plugins = [p for p in plugins if reader.provides & set(p.inputs)]
    if agnostic:
        if reader.runs_from_frame:
            log.runs = None
        _strip_variants(log)
    return model, plugins


def _expert_runs(ste: "list[str | Path] | Mapping[str, list[RunData]]", runs: list[RunData], perf: str | None,
                 values: dict[str, Any], agnostic: bool, ste_store: str | Path | None,
                 ste_store_format: str, log_perf: str) -> dict[str, list[RunData]]:
    """The single-task-expert runs of the log's tasks (``--ste``: paths, or the runs read
    from them), stored when ``--ste-store`` says so."""
    if not ste and ste_store is None:
        return {}
    from .ste import load_ste, match_ste, store_ste  # noqa: PLC0415 - lazy: the single-task-expert store loads only when STE data is used

    loaded = dict(ste) if isinstance(ste, Mapping) else load_ste(ste, perf) if ste else {}
    tasks = list(dict.fromkeys(t for run in runs for t in run.tasks))
    ste_data = match_ste(loaded, tasks, agnostic=agnostic,
                         compat=bool(values.get("l2metrics_compat")))
    if ste_store is not None:
        if not loaded:
            raise MetricsError("--ste-store needs STE data from --ste", exit_code=EXIT_USAGE)
        store_ste(loaded, ste_store, ste_store_format, perf or log_perf)
    return ste_data


def _computed(runs: list[RunData], ste_data: dict[str, list[RunData]], values: dict[str, Any],
              plugins: list[Metric], warnings: list[str], progress: bool | None,
              memo: "Memo | None") -> tuple[list[dict[str, Any]], dict[str, dict[str, dict[str, Any]]]]:
    """Every plugin on every run, then the steps across runs (`Defaults.finish`): the tidy
    records, partial flags set, and each run's details; the plugins' warnings go into
    ``warnings``."""
    records: list[dict[str, Any]] = []
    produced_by: dict[str, list[dict[str, Any]]] = {}
    bar = Progress(len(runs) * len(plugins), "computing metrics", progress)
    details: dict[str, dict[str, dict[str, Any]]] = {}
    with bar:
        for run in runs:
            kept = (memo if memo is not None and len(runs) == 1 and memo.admit(run)
                    else RunMemo())
            details[run.run] = _run_plugins(run, ste_data, values, plugins, records,
                                            warnings, len(runs), bar, produced_by, kept)
    for plugin in plugins:  # plugins that aggregate across runs (e.g. a pooled row)
        finish = optional(plugin, "finish")
        if finish is not None:
            extra, notes = finish(runs, values, produced_by.get(plugin.name, []))
            warnings.extend(notes)
            records.extend(_record(r) for r in extra or [])
    _mark_partial(records, runs)
    return records, details


def _record(produced: dict[str, Any], run: str | None = None) -> dict[str, Any]:
    """A plugin's row as a tidy record, with the types the DataFrame gives its columns: a block
    number or None, a float value or None (text that is no number too), missing keys None."""
    value = produced.get("value")
    if value is not None:
        if value.__class__ is not float:  # a plain float (what `row` gives) is as it stays
            try:
                value = float(value)
            except (TypeError, ValueError):
                value = None
        if value is not None and math.isnan(value):
            value = None
    block: Any = produced.get("block")  # what the plugin put: a number, NaN, None
    if block is not None and block.__class__ is not int:
        block = None if _missing(block) else int(block)
    # an update of a run of hundreds of blocks makes thousands of these (issue 40)
    return {"run": produced.get("run") if run is None else run, "task": produced.get("task"),
            "block": block, "phase": produced.get("phase"),
            "metric": produced.get("metric"), "value": value, "partial": False}


def _run_plugins(run: RunData, ste_data: dict, values: dict, all_plugins: list, records: list,
                 warnings: list, n_runs: int, bar: "Progress",
                 produced_by: dict[str, list[dict[str, Any]]],
                 memo: "Memo" = NO_MEMO) -> dict[str, dict[str, Any]]:
    """Every plugin on one run; a plugin that fails becomes a warning, not a lost run.

    Rows of plugins that also aggregate across runs (a ``finish`` method) are kept in
    ``produced_by`` for that second step. Returns the details the plugins recorded. The
    plugins run in two lanes (`sylla.metrics.lanes`), their warnings and details merged here
    in plugin order."""
    from . import lanes  # noqa: PLC0415 - lazy: as the plugins

    ctx = Context(run=run, ste=ste_data, params=values, memo=memo)

    def done() -> None:
        bar.step()
        trim()  # a plugin's task-sized arrays are gone: let the next one reuse the pages

    outcomes = lanes.compute(all_plugins, lambda: Context(
        run=run, ste=ste_data, params=values, memo=memo, cache=ctx.cache), done,
        two_lanes=not memo.keeps)
    for plugin, outcome in zip(all_plugins, outcomes):
        assert outcome is not None  # a plugin a lane skipped comes after the error raised here
        if outcome.error is not None:
            raise outcome.error
        for message in outcome.ctx.warnings:
            ctx.warn(message)
        for task, named in outcome.ctx.details.items():
            ctx.details.setdefault(task, {}).update(named)
        produced = outcome.produced
        if optional(plugin, "finish") is not None:
            produced_by.setdefault(plugin.name, []).extend({**r, "run": run.run} for r in produced)
        records.extend([_record(r, run.run) for r in produced])
    if run.partial:
        partial = {int(b) for b in column(run.blocks, "block")[column(run.blocks, "partial")]}
        flags = [bool(f) for f in column(run.blocks, "partial")]
        why = ("log ends early" if True not in flags or all(flags[flags.index(True):])
               else "episodes are missing from the log")
        ctx.warn(f"run {run.run!r}: {why}; blocks {sorted(partial)} are partial and "
                 "every task and lifetime metric that uses them is affected")
    warnings.extend(w if run.run in w or n_runs == 1 else f"run {run.run!r}: {w}"
                    for w in ctx.warnings)
    return ctx.details


def _mark_partial(records: list[dict[str, Any]], runs: list[RunData]) -> None:
    """Set the ``partial`` flag: block rows of partial blocks, and task/lifetime rows of a run
    that ended early (a crashed run's aggregates are not comparable to a complete one's)."""
    for run in runs:
        if not run.partial:
            continue
        blocks = set(column(run.blocks, "block")[column(run.blocks, "partial")].astype(int))
        for r in records:
            if r["run"] == run.run and (r["block"] is None or r["block"] in blocks):
                r["partial"] = True


def _phase_check(model: "Syllabus", source: Any) -> None:
    """Refuse a syllabus without ``$phase``, with the words ``sylla explain`` uses: the seed
    text requires phase annotations, and without them no train/test split can be trusted."""
    if not model.phases:
        from sylla.grammar.syllabus.syllabus_type import infer_type  # noqa: PLC0415 - lazy: only a syllabus without phases needs its type, and the syllabus model is large to import

        reason = infer_type(model).reason
        raise MetricsError(f"{reason} (P308; add {{\"$phase\": \"1.train\"}} / "
                           "{\"$phase\": \"1.test\"} annotations)",
                           str(source) if isinstance(source, (str, Path)) else None)


def _strip_variants(log: EpisodeLog) -> None:
    """Variant-agnostic mode: every task name becomes its base task (before alignment, so
    adjacent blocks of two variants of one task become one block, as l2metrics' regimes do).
    Base names compare case-insensitively (``Alpha_V0`` and ``alpha_v1`` are one task), and
    keep the spelling first seen."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up, pandas loads only when used

    frame = log.frame
    if isinstance(frame, Columns) or "task" not in frame.columns:  # Columns: a streamed log's empty table
        return
    tasks = frame["task"]
    spelling: dict[str, str] = {}

    def base(task: object) -> str:
        name = variant_base(str(task))
        return spelling.setdefault(name.lower(), name)

    if isinstance(tasks.dtype, pd.CategoricalDtype):
        bases = [base(c) for c in tasks.cat.categories]
        codes = pd.Categorical(bases)
        frame["task"] = pd.Categorical.from_codes(
            codes.codes[tasks.cat.codes.to_numpy()], codes.categories)
    else:
        frame["task"] = tasks.astype(str).map(base)
