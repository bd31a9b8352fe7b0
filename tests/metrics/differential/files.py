"""The ``--format l2metrics`` side of the differential suite: the files themselves, key for key.

`harness.compare` checks every number l2metrics computes; this module checks the two files a
user of l2metrics reads, as l2metrics' command line writes them for one run
(``<name>_metrics.json``, ``<name>_regime.tsv``) against ``sylla metrics --format l2metrics``
on the same log and options: every key in l2metrics' order and nesting, every number equal
within 1e-9, integers, strings, ``null`` and ``NaN`` identical; every column of the regime
table in its order, every cell equal (a number within 1e-9, an integer or a text cell to the
character, an empty cell empty).

Two orders are not l2metrics' to give and are compared as sets: ``normalization_data_range``
(l2metrics fills it from a ``set`` of task names) and the lists with one value per STE run
(l2metrics lists them in its store's order, which ``-s a`` reverses; sylla in ``--ste`` order).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from .harness import ABS, PER_STE_RUN, REL, Comparison, L2metrics, OptionSet

UNORDERED_KEYS = frozenset({"normalization_data_range"})


def l2metrics_files(logs: list[Path], option: OptionSet, l2data: Path, out: Path,
                    data_range: Path | None = None, l2m: L2metrics | None = None) -> dict[str, Path | str]:
    """l2metrics' single-run files of each log, written by its command line (in ``l2m``, else
    in a process of its own): log name -> the folder holding them, or why l2metrics wrote none."""
    jobs = []
    for log in logs:
        args = ["-l", str(log), "-O", str(out / log.name), "--no-plot", "--no-save-settings",
                *option.flags]
        if data_range is not None:
            args += ["-d", str(data_range)]
        jobs.append(args)
    out.mkdir(parents=True, exist_ok=True)
    if l2m is None:
        with L2metrics() as once:
            results = once.call({"files": jobs}, l2data, out)["results"]
    else:
        results = l2m.call({"files": jobs}, l2data, out)["results"]
    got: dict[str, Path | str] = {}
    for log, result in zip(logs, results, strict=True):
        folder = out / log.name
        written = (folder / f"{log.name}_metrics.json").exists()
        got[log.name] = folder if result["ok"] and written else (
            result["error"] or "l2metrics wrote no files")
    return got


def sylla_files(log: Path, stes: list[Path], option: OptionSet, out: Path,
                data_range: Path | None = None) -> Path | str:
    """``sylla metrics --format l2metrics`` on the log with the same choices (through
    `sylla.cli.main`, in this process): the folder of its files, or its error."""
    from sylla.cli import main

    args = ["metrics", "--no-progress", "-l", str(log), "--format", "l2metrics",
            "--out", str(out)]
    for key, value in option.params:
        args += ["-P", f"{key}={value}"]
    if data_range is not None:
        args += ["-P", f"data_range={data_range}"]
    if option.compat:
        args.append("--l2metrics-compat")
    if option.perf:
        args += ["--perf", option.perf]
    for ste in stes:
        args += ["--ste", str(ste)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(args)
    if code:
        return f"exit {code}: {err.getvalue().strip()[-300:]}"
    return out


def compare_files(mine: Path, theirs: Path, name: str,
                  skip: frozenset[str] = frozenset()) -> Comparison:
    """Both tools' ``<name>_metrics.json`` and ``<name>_regime.tsv``, value for value
    (``skip``: top-level keys whose values are not compared, an argued departure; the key
    itself still must be there, in its place)."""
    c = Comparison()
    docs = [json.loads((folder / f"{name}_metrics.json").read_text())
            for folder in (mine, theirs)]
    for doc in docs:
        doc.update({key: None for key in skip if key in doc})
    same_json(c, docs[0], docs[1], "json")
    same_table(c, _rows(mine / f"{name}_regime.tsv"), _rows(theirs / f"{name}_regime.tsv"))
    return c


def same_json(c: Comparison, mine: Any, theirs: Any, where: str, ordered: bool = True) -> None:
    """One JSON value against l2metrics', recursively: a mismatch for each difference."""
    if isinstance(theirs, dict):
        if not isinstance(mine, dict):
            return _differ(c, where, mine, theirs)
        keys_mine, keys_theirs = list(mine), list(theirs)
        if not ordered:
            keys_mine, keys_theirs = sorted(keys_mine), sorted(keys_theirs)
        _differ(c, f"{where} keys", _key_diff(keys_mine, keys_theirs), keys_theirs,
                keys_mine == keys_theirs)
        for key in theirs:
            if key in mine:
                last = where.rsplit("/", 1)[-1]
                same_json(c, _ordered(mine[key], key), _ordered(theirs[key], key),
                          f"{where}/{key}", ordered=key not in UNORDERED_KEYS
                          and last not in UNORDERED_KEYS)
        return None
    if isinstance(theirs, list):
        if not isinstance(mine, list) or len(mine) != len(theirs):
            return _differ(c, where, mine, theirs)
        for i, (a, b) in enumerate(zip(mine, theirs)):
            same_json(c, a, b, f"{where}[{i}]")
        return None
    return _differ(c, where, mine, theirs, _same_scalar(mine, theirs))


def _key_diff(mine: list[str], theirs: list[str]) -> str:
    """Where two key lists part: the missing and extra keys, else the first out of order."""
    missing, extra = [k for k in theirs if k not in mine], [k for k in mine if k not in theirs]
    if missing or extra:
        return f"missing {missing}, extra {extra}"
    first = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
    return f"order differs from key {first}: {mine[first:] if first is not None else mine}"


def _ordered(value: Any, key: str) -> Any:
    """A list with one value per STE run, sorted (NaN last); anything else as it is."""
    if key in PER_STE_RUN and isinstance(value, list) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return sorted(value, key=lambda v: (math.isnan(v), v if not math.isnan(v) else 0.0))
    return value


def _same_scalar(mine: Any, theirs: Any) -> bool:
    if isinstance(theirs, float):
        if not isinstance(mine, float):  # 3 and 3.0 are written differently
            return False
        if math.isnan(theirs) or math.isnan(mine):
            return math.isnan(theirs) and math.isnan(mine)
        return math.isclose(mine, theirs, rel_tol=REL, abs_tol=ABS)
    return type(mine) is type(theirs) and mine == theirs


def _differ(c: Comparison, where: str, mine: Any, theirs: Any, same: bool = False) -> None:
    c.compared += 1
    if not same:
        c.mismatches.append(f"{where}: sylla {_short(mine)} vs l2metrics {_short(theirs)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 160 else text[:157] + "..."


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def same_table(c: Comparison, mine: list[list[str]], theirs: list[list[str]]) -> None:
    """The regime tables, header and cells: numbers within 1e-9, everything else (integers,
    names, truncated parameters, empty cells) to the character."""
    _differ(c, "tsv header", mine[:1], theirs[:1], mine[:1] == theirs[:1])
    _differ(c, "tsv rows", len(mine), len(theirs), len(mine) == len(theirs))
    if mine[:1] != theirs[:1]:
        return
    header = theirs[0]
    for r, (a, b) in enumerate(zip(mine[1:], theirs[1:])):
        for column, x, y in zip(header, a, b):
            _differ(c, f"tsv row {r} {column}", x, y, _same_cell(x, y))


def _same_cell(mine: str, theirs: str) -> bool:
    if mine == theirs:
        return True
    if not _is_float_text(theirs) or not _is_float_text(mine):
        return False
    x, y = float(mine), float(theirs)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=REL, abs_tol=ABS)


def _is_float_text(text: str) -> bool:
    """A cell pandas wrote for a float (an integer cell must match as text: ``3`` is not
    ``3.0``)."""
    try:
        float(text)
    except ValueError:
        return False
    return any(ch in text for ch in ".eEn")
