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
Each regime's block number is the one the reader met it under (the block table's
``block_num``), so a log of several workers, a test block whose tasks alternate between
workers and variants merged by variant-agnostic mode number their regimes as l2metrics does.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .data import with_frames
from .errors import EXIT_USAGE, MetricsError
from .plugins.l2m import unfittable_task
from .readers.sniff import is_l2logger
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
    """The ``_metrics.json`` document of the run (``runtime`` from `_runtime`)."""
    run = _one_run(result)
    details = result.details.get(run.run, {})
    summary = details.get("", {})
    names = task_metrics_names(result.params)
    lifetime = result.lifetime()
    scenario = _scenario(log)
    head = {name: _nan(lifetime.get(name)) for name in names}
    head.update({
        # l2metrics fills a key scenario_info.json leaves out with "" (l2logger's read_scenario_info)
        "run_id": log.name, "complexity": scenario.get("complexity", ""),
        "difficulty": scenario.get("difficulty", ""),
        "scenario_type": scenario.get("scenario_type", ""),
        "metrics_column": perf, "min": summary.get("min"), "max": summary.get("max"),
        "num_lx": sum(int(details.get(t, {}).get("num_lx", 0)) for t in details if t),
        "num_ex": sum(int(details.get(t, {}).get("num_ex", 0)) for t in details if t),
        "runtime": runtime,
    })
    # l2metrics builds this part with DataFrame.to_json, which rounds floats to 10 decimals
    out: dict[str, Any] = json.loads(pd.Series(head, dtype=object).to_json())
    ranges = summary.get("normalization_data_range")
    if ranges is not None and result.params.get("data_range") and \
            result.params.get("variant_mode", "aware") == "aware":
        ranges = _range_file(result.params["data_range"])
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
    # l2metrics' sample efficiency adds these two keys to every task, NaN where it has no value
    # (its check for STE data passes whenever the run has a task), unless it failed as a whole
    fitted = unfittable_task(run) is None
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
        if fitted:
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


def regime_frame(result: MetricsResult, log: Path) -> pd.DataFrame:
    """The ``_regime.tsv`` table: one row per regime with its structure and values, columns
    as l2metrics' ``regime_metrics_df`` holds them (objects: a count is written ``3``, a
    missing value as an empty cell)."""
    run = _one_run(result)
    b = run.blocks
    rows = result.rows[(result.rows.run == run.run) & result.rows.block.notna()
                       & result.rows.task.notna()]
    rows = rows[~rows.task.astype(str).str.contains("->", regex=False)]
    cell = {(int(k), str(m)): float(v) for k, m, v in zip(rows.block, rows.metric, rows.value)}
    frame = pd.DataFrame({
        "block_num": _block_numbers(b, log),
        "block_type": b.kind.astype(str).to_numpy(),
        "block_subtype": b.subtype.astype(str).to_numpy(),
        "task_name": [str(t).lower() for t in b.task],
        "regime_num": b.block.astype(int).to_numpy(),
    })
    params = b.params.astype(str)
    if result.params.get("variant_mode", "aware") == "aware" and params.nunique() > 1:
        frame["task_params"] = [p[:25] + "..." if len(p) > 25 else p for p in params]
    for name in REGIME_VALUES:
        values = [cell.get((int(k), name), math.nan) for k in b.block]
        if name.startswith("exp_"):  # l2metrics' counts are Python ints in object columns
            values = [v if math.isnan(v) else int(v) for v in values]
        frame[name] = pd.Series(values, dtype=object).to_numpy()
    frame["avg_perf"] = [cell.get((int(k), "avg_train_perf"),
                                  cell.get((int(k), "avg_eval_perf"), math.nan)) for k in b.block]
    frame["run_id"] = log.name
    return frame


def _block_numbers(blocks: pd.DataFrame, log: Path) -> Any:
    """Each regime's block number in the log, as the reader met it; refused where l2metrics
    has no regimes to number: a log that is not l2logger's, or regimes a syllabus made."""
    if not is_l2logger(log):
        raise MetricsError("--format l2metrics writes the files l2metrics writes, and l2metrics "
                           "reads l2logger logs only (a folder with logger_info.json)",
                           str(log), exit_code=EXIT_USAGE)
    if "block_num" not in blocks.columns:  # the Python API: a result aligned with a syllabus
        raise MetricsError("l2metrics' files number the log's own regimes: compute the metrics "
                           "without a syllabus for them", str(log), exit_code=EXIT_USAGE)
    return blocks["block_num"].astype("int64").to_numpy()


def write_l2metrics(result: MetricsResult, log: str | Path, out: Path | None,
                    perf: str, name: str | None = None) -> list[Path]:
    """Write ``<name>_metrics.json`` and ``<name>_regime.tsv`` into ``out`` (default: the
    current directory); ``name`` defaults to the log folder's name, as in l2metrics."""
    log = Path(log)
    folder = out if out is not None else Path(".")
    stem = (name or log.name).replace(" ", "_")
    regimes = regime_frame(result, log)
    doc = document(result, log, perf, _runtime(log))
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


def _range_file(path: str) -> dict[str, Any]:
    """The ``-d`` file's entries as written (an integer stays one, extra keys stay): l2metrics
    normalises with the file's dictionary itself, keys lower-cased, and writes it back (the
    file was checked when the metrics read it)."""
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    return {str(k).lower(): v for k, v in raw.items()}


def _scenario(log: Path) -> dict[str, Any]:
    """The log's ``scenario_info.json`` (l2logger), or nothing for other formats."""
    path = log / "scenario_info.json"
    try:
        info = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def _runtime(log: Path) -> float | None:
    """The seconds from the first to the last ``timestamp`` of the experiences l2metrics keeps
    (``exp_status`` complete), over every worker's block files, as l2metrics reports
    ``runtime``; ``%Y%m%dT%H%M%S.%f`` is fixed-width, so text order is time order. One column
    pair of one file at a time, reduced by pyarrow: a 10M-row log is never held."""
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow.csv loads only when used

    first: str | None = None
    last: str | None = None
    for tsv in log.glob("*/*/data-log.tsv"):
        try:
            table = pacsv.read_csv(tsv, parse_options=pacsv.ParseOptions(delimiter="\t"),
                                   convert_options=pacsv.ConvertOptions(
                                       include_columns=["timestamp", "exp_status"],
                                       include_missing_columns=True,
                                       column_types={"timestamp": pa.string(),
                                                     "exp_status": pa.string()}))
        except (pa.ArrowInvalid, OSError):
            return None
        stamps, status = table.column("timestamp"), table.column("exp_status")
        keep = pc.not_equal(stamps, "")
        if status.null_count < len(status):
            keep = pc.and_(keep, pc.equal(status, "complete"))
        span = pc.min_max(pc.filter(stamps, keep)).as_py()
        if span["min"] is not None:
            first = min(first or span["min"], span["min"])
            last = max(last or span["max"], span["max"])
    if first is None or last is None:
        return None
    try:
        fmt = "%Y%m%dT%H%M%S.%f"
        return (datetime.strptime(last, fmt) - datetime.strptime(first, fmt)).total_seconds()
    except ValueError:
        return None
