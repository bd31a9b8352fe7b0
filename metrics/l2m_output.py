"""``sylla metrics --format l2metrics``: the two files l2metrics 3.1.0 writes for a run.

``<name>_metrics.json`` and ``<name>_regime.tsv`` carry the keys, nesting, order and rounding of
l2metrics' ``MetricsReport.save_metrics`` so that scripts written against l2metrics keep
working on sylla's numbers:

- the lifetime values, then ``run_id``, the scenario's ``complexity``, ``difficulty`` and
  ``scenario_type``, ``metrics_column``, the preprocessed data's ``min``/``max``, the train and
  test row counts ``num_lx``/``num_ex`` and the ``runtime`` between the first and last timestamp,
  all passed through pandas' ``to_json`` as l2metrics does (10 decimals);
- ``normalization_data_range`` and ``task_metrics`` at full precision, with each task's
  intermediates (``recovery_times``, ``*_vals``, ``maintenance_val_*``, the transfer values of
  every block) and its ``min``/``max``/``num_lx``/``num_ex``. A value l2metrics has none of is
  ``NaN``, which its ``json.dump`` writes as the bare token ``NaN``; so does this file.

Task names are lower-cased, as l2logger and so l2metrics give them. The regime table has one
row per regime (a block of one task), truncated task parameters when they vary, and ``avg_perf``.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from .data import with_frames
from .errors import EXIT_USAGE, MetricsError
from .result import MetricsResult

TRANSFER = ("forward_transfer_ratio", "backward_transfer_ratio", "forward_transfer_contrast",
            "backward_transfer_contrast")
#: the intermediates l2metrics adds to a task's entry, in the order it adds them
LISTS = ("recovery_times", "avg_train_perf_vals", "avg_eval_perf_vals")
STE_LISTS = ("ste_rel_perf_vals", "ste_saturation_vals", "ste_exp_to_sat_vals",
             "se_saturation_vals", "se_exp_to_sat_vals", "sample_efficiency_vals")
REGIME_VALUES = ("saturation", "exp_to_sat", "term_perf", "exp_to_term_perf")


def task_metrics_names(params: dict[str, Any]) -> list[str]:
    """l2metrics' ``task_metrics``: the lifetime keys and the first keys of each task entry."""
    names = ["perf_recovery", "avg_train_perf", "avg_eval_perf"]
    maintenance, transfer = params.get("maintenance_method", "mrlep"), \
        params.get("transfer_method", "ratio")
    names += [f"perf_maintenance_{m}" for m in ("mrlep", "mrtlp") if maintenance in (m, "both")]
    for kind in ("ratio", "contrast"):
        if transfer in (kind, "both"):
            names += [f"forward_transfer_{kind}", f"backward_transfer_{kind}"]
    return names + ["ste_rel_perf", "sample_efficiency"]


def task_order(blocks: pd.DataFrame) -> list[str]:
    """Tasks in l2metrics' order: by first training, then the tasks only ever tested."""
    ordered = blocks.sort_values(["kind", "block"], ascending=[False, True], kind="stable")
    return list(dict.fromkeys(str(t) for t in ordered.task))


def _nan(value: Any) -> Any:
    return math.nan if value is None else value


def document(result: MetricsResult, log: Path, perf: str,
             runtime: float | None = None) -> dict[str, Any]:
    """The ``_metrics.json`` document of the run (``runtime`` from `_scan`)."""
    run = _one_run(result)
    details = result.details.get(run.run, {})
    summary = details.get("", {})
    names = task_metrics_names(result.params)
    lifetime = result.lifetime()
    scenario = _scenario(log)
    head = {name: _nan(lifetime.get(name)) for name in names}
    head.update({
        "run_id": log.name, "complexity": scenario.get("complexity"),
        "difficulty": scenario.get("difficulty"), "scenario_type": scenario.get("scenario_type"),
        "metrics_column": perf, "min": summary.get("min"), "max": summary.get("max"),
        "num_lx": sum(int(details.get(t, {}).get("num_lx", 0)) for t in details if t),
        "num_ex": sum(int(details.get(t, {}).get("num_ex", 0)) for t in details if t),
        "runtime": runtime,
    })
    # l2metrics builds this part with DataFrame.to_json, which rounds floats to 10 decimals
    out: dict[str, Any] = json.loads(pd.Series(head, dtype=object).to_json())
    ranges = summary.get("normalization_data_range")
    out["normalization_data_range"] = None if ranges is None else {
        str(k).lower(): v for k, v in ranges.items()}
    out["task_metrics"] = _task_metrics(result, run, details, names)
    return out


def _task_metrics(result: MetricsResult, run: Any, details: dict[str, dict[str, Any]],
                  names: list[str]) -> dict[str, dict[str, Any]]:
    rows = result.rows[result.rows.run == run.run]
    per_task = rows[rows.task.notna() & rows.block.isna() & rows.phase.isna()]
    per_block = rows[rows.block.notna() & rows.task.notna()]
    value = {(str(t), str(m)): v for t, m, v in zip(per_task.task, per_task.metric,
                                                    per_task.value)}
    has = set(rows.metric)
    out: dict[str, dict[str, Any]] = {}
    for task in task_order(run.blocks):
        mine = details.get(task, {})
        entry: dict[str, Any] = {}
        for name in names:
            if name in TRANSFER:
                entry[name] = _transfer(per_block, task, name)
            else:
                v = value.get((task, name))
                entry[name] = math.nan if v is None or pd.isna(v) else float(v)
        for name in LISTS:
            entry[name] = mine.get(name, [])
        for name in (n for n in names if n.startswith("perf_maintenance_")):
            key = f"maintenance_val_{name.rsplit('_', 1)[-1]}"
            entry[key] = mine.get(key, [])
        for name in STE_LISTS:
            entry[name] = mine.get(name, [])
        if "sample_efficiency" in has or "se_task_saturation" in mine:
            entry["se_task_saturation"] = _nan(mine.get("se_task_saturation"))
            entry["se_task_exp_to_sat"] = _nan(mine.get("se_task_exp_to_sat"))
        for name in ("min", "max", "num_lx", "num_ex"):
            entry[name] = mine.get(name, math.nan)
        out[task.lower()] = entry
    return out


def _transfer(per_block: pd.DataFrame, task: str, metric: str) -> dict[str, list[float]]:
    """``{other: [value of each block]}`` for the pairs ``task->other``, in block order."""
    sel = per_block[(per_block.metric == metric)
                    & per_block.task.astype(str).str.startswith(f"{task}->")]
    out: dict[str, list[float]] = {}
    for pair, _block, v in sorted(zip(sel.task.astype(str), sel.block, sel.value),
                                 key=lambda item: item[1]):
        other = pair.split("->", 1)[1]
        if other == task:
            continue
        out.setdefault(other.lower(), []).append(float(v))
    return out


def regime_frame(result: MetricsResult, log: Path, numbers: list[int] | None) -> pd.DataFrame:
    """The ``_regime.tsv`` table: one row per regime with its structure and values
    (``numbers``: each regime's block number in the log, from `_scan`)."""
    run = _one_run(result)
    b = run.blocks
    rows = result.rows[(result.rows.run == run.run) & result.rows.block.notna()
                       & result.rows.task.notna()]
    rows = rows[~rows.task.astype(str).str.contains("->", regex=False)]
    cell = {(int(k), str(m)): float(v) for k, m, v in zip(rows.block, rows.metric, rows.value)}
    if numbers is None or len(numbers) != len(b):
        raise MetricsError("--format l2metrics needs an l2logger log folder (its block numbers "
                           "name the regimes)", str(log), exit_code=EXIT_USAGE)
    frame = pd.DataFrame({
        "block_num": numbers,
        "block_type": b.kind.astype(str).to_numpy(),
        "block_subtype": b.subtype.astype(str).to_numpy(),
        "task_name": [str(t).lower() for t in b.task],
        "regime_num": b.block.astype(int).to_numpy(),
    })
    params = b.params.astype(str)
    if result.params.get("variant_mode", "aware") == "aware" and params.nunique() > 1:
        frame["task_params"] = [p[:25] + "..." if len(p) > 25 else p for p in params]
    for name in REGIME_VALUES:
        column = pd.Series([cell.get((int(k), name), math.nan) for k in b.block], dtype=float)
        if column.notna().all() and (column % 1 == 0).all() and name.startswith("exp_"):
            column = column.astype("int64")  # l2metrics' counts stay integers when none is NaN
        frame[name] = column.to_numpy()
    frame["avg_perf"] = [cell.get((int(k), "avg_train_perf"),
                                  cell.get((int(k), "avg_eval_perf"), math.nan)) for k in b.block]
    frame["run_id"] = log.name
    return frame


def write_l2metrics(result: MetricsResult, log: str | Path, out: Path | None,
                    perf: str, name: str | None = None) -> list[Path]:
    """Write ``<name>_metrics.json`` and ``<name>_regime.tsv`` into ``out`` (default: the
    current directory); ``name`` defaults to the log folder's name, as in l2metrics."""
    log = Path(log)
    folder = out if out is not None else Path(".")
    stem = (name or log.name).replace(" ", "_")
    runtime, numbers = _scan(log)
    doc = document(result, log, perf, runtime)
    regimes = regime_frame(result, log, numbers)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{stem}_metrics.json"
    target.write_text(json.dumps(doc), encoding="utf-8", newline="\n")
    table = folder / f"{stem}_regime.tsv"
    regimes.to_csv(table, sep="\t", index=False)
    return [target, table]


def _one_run(result: MetricsResult) -> Any:
    if len(result.runs) != 1:
        raise MetricsError(f"--format l2metrics writes one run's files; this log holds "
                           f"{len(result.runs)} runs (use sylla sweep for several)",
                           exit_code=EXIT_USAGE)
    if not any(str(m).startswith("avg_train_perf") for m in result.rows.metric):
        raise MetricsError("--format l2metrics needs the l2metrics metrics (avg_perf, ...); "
                           "do not exclude them with --metric", exit_code=EXIT_USAGE)
    return with_frames(result.runs[0])  # the regime table is written with DataFrame operations


def _scenario(log: Path) -> dict[str, Any]:
    """The log's ``scenario_info.json`` (l2logger), or nothing for other formats."""
    path = log / "scenario_info.json"
    try:
        info = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def _scan(log: Path) -> tuple[float | None, list[int] | None]:
    """One pass over an l2logger log's block files for what the aligned run does not keep:
    the seconds from the first to the last ``timestamp`` (``%Y%m%dT%H%M%S.%f``, so text order
    is time order, as l2metrics reports ``runtime``) and the log's own block number of each
    regime (a run of one task within a block file, in block order)."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    files = sorted(log.glob("*/*/data-log.tsv"), key=lambda p: _block_number(p.parent.name))
    first: str | None = None
    last: str | None = None
    numbers: list[int] | None = []
    for tsv in files:
        try:
            table = pacsv.read_csv(tsv, parse_options=pacsv.ParseOptions(delimiter="\t"),
                                   convert_options=pacsv.ConvertOptions(
                                       include_columns=["timestamp", "task_name"],
                                       column_types={"timestamp": pa.string(),
                                                     "task_name": pa.string()}))
        except (pa.ArrowInvalid, KeyError, OSError):
            return None, None
        stamps = [s for s in table.column("timestamp").to_pylist() if s]
        if stamps:
            first = min(stamps + ([first] if first else []))
            last = max(stamps + ([last] if last else []))
        previous = None
        for task in table.column("task_name").to_pylist():
            key = str(task).lower()
            if key != previous and numbers is not None:
                numbers.append(_block_number(tsv.parent.name))
            previous = key
    runtime = None
    if first is not None and last is not None:
        try:
            fmt = "%Y%m%dT%H%M%S.%f"
            runtime = (datetime.strptime(last, fmt) - datetime.strptime(first, fmt)).total_seconds()
        except ValueError:
            runtime = None
    return runtime, numbers or None


def _block_number(folder: str) -> int:
    head = folder.split("-", 1)[0]
    return int(head) if head.isdigit() else -1
