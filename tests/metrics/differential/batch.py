"""One batch of the differential suite: logs and STE runs written, both tools run under every
option set, every number and every ``--format l2metrics`` file compared.

`harness` runs l2metrics' recursive mode and compares the numbers (`harness.compare`); `files`
runs its single-run mode and compares the files it writes with sylla's ``--format l2metrics``
(`files.compare_files`). A (log, option set) l2metrics cannot compute is counted, not compared;
one sylla cannot compute while l2metrics can is a finding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import files
from .harness import (
    L2metrics,
    L2mResult,
    OptionSet,
    compare,
    run_l2metrics,
    run_sylla,
    store_ste_l2m,
    write_data_range,
    write_logs,
)


@dataclass
class BatchReport:
    """What one batch of logs under a list of option sets gave."""

    logs: int = 0
    runs: int = 0  # (log, option set) pairs both tools computed
    values: int = 0
    l2m_failed: list[str] = field(default_factory=list)
    sylla_failed: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    departures: list[str] = field(default_factory=list)  # argued departures, not compared
    #: the ``--format l2metrics`` files: (log, option set) pairs both tools wrote, values
    #: compared, and the pairs where one tool wrote none
    file_runs: int = 0
    file_values: int = 0
    file_mismatches: list[str] = field(default_factory=list)
    file_l2m_failed: list[str] = field(default_factory=list)
    file_sylla_failed: list[str] = field(default_factory=list)


def prepare_batch(logs: list[dict[str, Any]], ste_pool: list[dict[str, Any]],
                  work: Path) -> tuple[list[Path], list[Path], dict[str, Path]]:
    """Write the logs and STE runs; returns log folders, STE folders and the two ``-d`` files."""
    for i, item in enumerate(logs):
        item["log"]["dir"] = str(work / "logs")
        item["log"]["scenario"] = f"run{i:03d}"
    for spec in ste_pool:
        spec["dir"] = str(work / "ste")
    written = write_logs([item["log"] for item in logs] + ste_pool)
    (work / "ste").mkdir(exist_ok=True)
    tasks = sorted({t for item in logs for t in item["tasks"]})
    ranges = {k: write_data_range(work / f"range-{k}.json", tasks, k)
              for k in ("variant", "base")}
    return written[:len(logs)], written[len(logs):], ranges


def ste_for_mode(stes: list[Path], mode: str) -> list[Path]:
    """The STE runs l2metrics holds after storing the folder with ``-s MODE``: all of them
    (``a``), the last in its sorted walk of each task (``w``), or none."""
    if mode == "none":
        return []
    ordered = sorted(stes)
    if mode == "a":
        return ordered
    last: dict[str, Path] = {}
    for path in ordered:
        last[_trained_task(path)] = path
    return sorted(last.values())


def _trained_task(run: Path) -> str:
    """The lower-cased task an STE run trains (as l2logger reads it)."""
    for tsv in sorted(run.glob("*/*-train/data-log.tsv")):
        head = tsv.read_text().splitlines()[:2]
        cols = head[0].split("\t")
        return head[1].split("\t")[cols.index("task_name")].lower()
    raise ValueError(f"no training in STE run {run}")


def departs(option: OptionSet, tasks: list[str], stored: list[str],
            range_keys: list[str]) -> str | None:
    """Why sylla's default rightly gives other numbers than l2metrics here, if it does.

    In variant-agnostic mode l2metrics 3.1.0 gives a base task the STE runs of every stored
    name that starts with it and the data range of every key that contains it, so task ``ab``
    also takes ``abc_y``'s (docs/metrics.md, "Variant-agnostic matching"). sylla matches exact
    base names unless ``--l2metrics-compat``; the option sets with ``compat`` check that mode
    against l2metrics on the same logs."""
    if option.compat or ("variant_mode", "agnostic") not in option.params:
        return None
    base = lambda name: name.lower().split("_")[0]
    stored_bases = {base(s) for s in stored}
    for task in sorted({base(t) for t in tasks}):
        exact = {s for s in stored if base(s) == task}
        glob = {task} & set(stored) or ({s for s in stored if s.startswith(task)}
                                        if task in stored_bases else set())
        if exact != glob:
            return f"STE runs of {sorted(glob - exact)} also match {task!r} by prefix"
        exact = {k for k in range_keys if base(k) == task}
        substring = {k for k in range_keys if task in k.lower()}
        if exact != substring:
            return f"ranges of {sorted(substring - exact)} also match {task!r} by substring"
    return None


def range_departs(option: OptionSet, range_keys: list[str]) -> str | None:
    """Why sylla's ``normalization_data_range`` rightly differs from l2metrics' here, if it
    does: in variant-agnostic mode each base of the ``-d`` file takes the widest range of the
    keys it is a substring of in l2metrics (``ab`` also takes ``abc_y``'s), of the keys whose
    base it is in sylla unless ``--l2metrics-compat`` (see `departs`). The file's every key is
    written, so a log without the task shows it too."""
    if option.compat or ("variant_mode", "agnostic") not in option.params:
        return None
    bases = sorted({k.lower().split("_")[0] for k in range_keys})
    for base in bases:
        exact = {k for k in range_keys if k.lower().split("_")[0] == base}
        substring = {k for k in range_keys if base in k.lower()}
        if exact != substring:
            return f"ranges of {sorted(substring - exact)} also match {base!r} by substring"
    return None


def run_batch(logs: list[dict[str, Any]], ste_pool: list[dict[str, Any]],
              options: list[OptionSet], work: Path, with_files: bool = True) -> BatchReport:
    """Both tools on every log of the batch under every option set; every value compared, and
    (``with_files``) every key and cell of the ``--format l2metrics`` files."""
    with L2metrics() as l2m:
        return _run_batch(logs, ste_pool, options, work, with_files, l2m)


def _run_batch(logs: list[dict[str, Any]], ste_pool: list[dict[str, Any]], options: list[OptionSet],
               work: Path, with_files: bool, l2m: L2metrics) -> BatchReport:
    report = BatchReport(logs=len(logs))
    log_dirs, ste_dirs, ranges = prepare_batch(logs, ste_pool, work)
    l2data = {}
    for mode in sorted({o.ste for o in options}):
        l2data[mode] = work / f"l2data-{mode}"
        if mode != "none" and ste_dirs:
            store_ste_l2m(work / "ste", mode, l2data[mode], l2m)
        l2data[mode].mkdir(exist_ok=True)
    where_is = {d.name: d for d in log_dirs}
    for option in options:
        data_range = ranges.get(option.data_range) if option.data_range else None
        pending = sorted(where_is)
        theirs: dict[str, L2mResult] = {}
        attempt = 0
        while pending:  # a run that stops l2metrics ends its recursive call: go on without it
            parent = work / f"l2m-{option.name}-{attempt}"
            parent.mkdir()
            for name in pending:
                where_is[name] = where_is[name].rename(parent / name)
            got = run_l2metrics(parent, option, l2data[option.ste],
                                work / f"out-{option.name}-{attempt}", data_range, l2m)
            if "*" in got:
                theirs.update({n: got["*"] for n in pending})
            theirs.update({n: r for n, r in got.items() if n in pending})
            still = [n for n in pending if n not in theirs]
            if len(still) == len(pending):  # no progress: l2metrics failed without a name
                theirs.update({n: L2mResult(error="l2metrics wrote nothing") for n in still})
                still = []
            pending = still
            attempt += 1
        stes = ste_for_mode(ste_dirs, option.ste)
        stored = sorted({_trained_task(p) for p in stes})
        keys = sorted(json.loads(data_range.read_text())) if data_range else []
        theirs_files = files.l2metrics_files(
            sorted(where_is.values()), option, l2data[option.ste],
            work / f"files-{option.name}", data_range, l2m) if with_files else {}
        for name, folder in sorted(where_is.items()):
            where = f"{option.name} {name}"
            why = departs(option, logs[int(name[3:6])]["tasks"], stored, keys)
            if why:
                report.departures.append(f"{where}: {why}")
                continue
            if with_files:
                _compare_files(report, where, folder, theirs_files[name], stes, option,
                               work / f"sylla-files-{option.name}" / name, data_range,
                               range_departs(option, keys))
            result = theirs.get(name)
            if result is None or result.error is not None:
                report.l2m_failed.append(f"{where}: {result.error if result else 'no output'}")
                continue
            try:
                rows, details = run_sylla(folder, stes, option, data_range)
            except Exception as exc:  # noqa: BLE001 - a failure here is a finding, kept
                report.sylla_failed.append(f"{where}: {type(exc).__name__}: {exc}")
                continue
            comparison = compare(result, rows, details)
            report.runs += 1
            report.values += comparison.compared
            report.mismatches += [f"{where}: {m}" for m in comparison.mismatches]
    return report


def _compare_files(report: BatchReport, where: str, log: Path, theirs: Path | str,
                   stes: list[Path], option: OptionSet, out: Path,
                   data_range: Path | None, ranges_depart: str | None) -> None:
    """The ``--format l2metrics`` files of one (log, option set), counted into ``report``
    (``ranges_depart``: why ``normalization_data_range`` is not compared, if it is not)."""
    if isinstance(theirs, str):
        report.file_l2m_failed.append(f"{where}: {theirs}")
        return
    mine = files.sylla_files(log, stes, option, out, data_range)
    if isinstance(mine, str):
        report.file_sylla_failed.append(f"{where}: {mine}")
        return
    skip = frozenset({"normalization_data_range"} if ranges_depart else ())
    if ranges_depart:
        report.departures.append(f"{where}: files: normalization_data_range: {ranges_depart}")
    comparison = files.compare_files(mine, theirs, log.name, skip)
    report.file_runs += 1
    report.file_values += comparison.compared
    report.file_mismatches += [f"{where}: {m}" for m in comparison.mismatches]
