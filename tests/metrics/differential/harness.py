"""The differential harness: the same l2logger log through l2metrics' own CLI and through sylla.

Used through `batch.run_batch` by ``tests/metrics/test_differential.py`` (a short hypothesis
run) and ``bench/differential.py`` (the long campaign). Logs are written by l2logger's ``DataLogger``
(`l2l_write.py`, in ``.venv-l2m``); l2metrics 3.1.0 runs as ``python -m l2metrics -R ...``, the
recursive mode, because that is the one whose files carry every value at full precision (the
lifetime TSV; the single-run JSON rounds lifetime values to 10 decimals). STE runs are stored
with ``python -m l2metrics -R -s a|w`` into a private ``$L2DATA``, as a user stores them.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
#: SYLLA_L2M_PYTHON points at another l2metrics 3.1.0 interpreter (a venv made elsewhere)
L2M_PY = Path(os.environ.get("SYLLA_L2M_PYTHON", ROOT / ".venv-l2m" / "bin" / "python"))
REL, ABS = 1e-9, 1e-9


@dataclass(frozen=True)
class OptionSet:
    """One row of the option table: l2metrics flags and the same choice in sylla's words.

    ``ste`` is how STE runs are stored for l2metrics: ``a`` (append: every run), ``w``
    (write: each run replaces the one before, so the last run of a task is used) or ``none``.
    ``data_range`` is ``base`` or ``variant`` for a ``-d`` file keyed by base or variant
    names, ``compat`` runs sylla with ``--l2metrics-compat``."""

    name: str
    flags: tuple[str, ...] = ()
    params: tuple[tuple[str, str], ...] = ()
    ste: str = "a"
    perf: str | None = None
    data_range: str | None = None
    compat: bool = False


def _o(name: str, flags: str = "", params: dict[str, str] | None = None, **kw: Any) -> OptionSet:
    return OptionSet(name, tuple(flags.split()), tuple((params or {}).items()), **kw)


#: every l2metrics flag that changes a number, alone and in the combinations that interact
OPTION_SETS: tuple[OptionSet, ...] = (
    _o("defaults"),
    _o("no-ste", ste="none"),
    _o("ste-write", ste="w"),
    _o("norm-run", "-n run", {"normalization": "run"}),
    _o("norm-none", "-n none", {"normalization": "none"}),
    _o("smooth-none", "-g none", {"smoothing": "none"}),
    _o("smooth-hanning", "-g hanning", {"smoothing": "hanning"}),
    _o("smooth-hamming-w5", "-g hamming -w 5", {"smoothing": "hamming", "window_length": "5"}),
    _o("smooth-bartlett", "-g bartlett", {"smoothing": "bartlett"}),
    _o("smooth-blackman-G", "-g blackman -G", {"smoothing": "blackman", "smooth_eval": "true"}),
    _o("smooth-eval", "-G", {"smooth_eval": "true"}),
    _o("window-3", "-w 3", {"window_length": "3"}),
    _o("window-20", "-w 20", {"window_length": "20"}),
    _o("clamp", "-x", {"clamp_outliers": "true"}),
    _o("clamp-run", "-x -n run", {"clamp_outliers": "true", "normalization": "run"}),
    _o("range-variant", "", {}, data_range="variant"),
    _o("range-variant-run", "-n run", {"normalization": "run"}, data_range="variant"),
    _o("range-clamp", "-x", {"clamp_outliers": "true"}, data_range="variant"),
    _o("agnostic", "-r agnostic", {"variant_mode": "agnostic"}),
    _o("agnostic-range-base", "-r agnostic", {"variant_mode": "agnostic"}, data_range="base"),
    _o("agnostic-range-variant", "-r agnostic", {"variant_mode": "agnostic"},
       data_range="variant"),
    _o("agnostic-compat", "-r agnostic", {"variant_mode": "agnostic"}, compat=True),
    _o("agnostic-compat-range", "-r agnostic", {"variant_mode": "agnostic"},
       data_range="variant", compat=True),
    _o("median", "-a median", {"aggregation": "median"}),
    _o("mrtlp", "-m mrtlp", {"maintenance_method": "mrtlp"}),
    _o("maint-both", "-m both", {"maintenance_method": "both"}),
    _o("contrast", "-t contrast", {"transfer_method": "contrast"}),
    _o("transfer-both", "-t both", {"transfer_method": "both"}),
    _o("ste-time", "-v time", {"ste_averaging": "time"}),
    _o("ste-time-write", "-v time", {"ste_averaging": "time"}, ste="w"),
    _o("perf-score", "-p score", {}, perf="score"),
    _o("perf-score-norm-run", "-p score -n run", {"normalization": "run"}, perf="score"),
    _o("all-both-median", "-a median -m both -t both -x",
       {"aggregation": "median", "maintenance_method": "both", "transfer_method": "both",
        "clamp_outliers": "true"}),
    _o("raw", "-n none -g none -t contrast",
       {"normalization": "none", "smoothing": "none", "transfer_method": "contrast"}),
)


# ----------------------------------------------------------------------------- writing logs

def write_logs(specs: list[dict[str, Any]]) -> list[Path]:
    """Write every spec with l2logger's DataLogger in one ``.venv-l2m`` process."""
    out = subprocess.run([str(L2M_PY), str(HERE / "l2l_write.py")], input=json.dumps(specs),
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(f"l2logger failed to write the logs:\n{out.stderr[-3000:]}")
    return [Path(p) for p in json.loads(out.stdout)]


def write_data_range(path: Path, tasks: list[str], keyed: str) -> Path:
    """A ``-d`` file covering every task, keyed by variant (``alpha_v0``) or base (``alpha``)
    name; ranges differ per key so that a wrong key changes numbers. Keyed by variant, the
    first key whose base another key shares is written in integers and with a key besides
    ``min`` and ``max``, as a hand-written file may be: l2metrics writes the file's entries
    back as they are (`files.py`). (A base with one integer key alone would stop l2metrics in
    variant-agnostic mode: its merged ``np.int64`` range is no JSON.)"""
    keys = sorted({t if keyed == "variant" else t.split("_")[0] for t in tasks})
    ranges: dict[str, dict[str, Any]] = {
        k: {"min": -5.0 - i, "max": 20.0 + 3 * i} for i, k in enumerate(keys)}
    bases = [k.split("_")[0] for k in keys]
    shared = [k for k, b in zip(keys, bases) if bases.count(b) > 1]
    if keyed == "variant" and shared:
        entry = ranges[shared[0]]
        ranges[shared[0]] = {"min": int(entry["min"]), "max": int(entry["max"]), "note": "hand"}
    path.write_text(json.dumps(ranges))
    return path


# ----------------------------------------------------------------------------- running tools

@dataclass
class L2mResult:
    """l2metrics' values for one log, at full precision, or why it failed."""

    lifetime: dict[str, float | None] = field(default_factory=dict)
    tasks: dict[str, dict[str, Any]] = field(default_factory=dict)
    regimes: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, float | None] = field(default_factory=dict)
    error: str | None = None


class L2metrics:
    """One l2metrics 3.1.0 process (`l2m_cli.py`, in ``.venv-l2m``) that runs its command line
    once per call: l2metrics is imported once per batch, not once per call (two CPU seconds
    each). A context manager; the process ends when the block does."""

    def __init__(self) -> None:
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(HERE / "l2m_shim"))
        self._errors = tempfile.TemporaryFile("w+")  # what C code prints, apart from the answers
        self._proc = subprocess.Popen([str(L2M_PY), str(HERE / "l2m_cli.py")], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._errors, text=True, env=env)

    def __enter__(self) -> L2metrics:
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait(timeout=120)
        self._errors.close()

    def call(self, job: dict[str, Any], l2data: Path, cwd: Path) -> dict[str, Any]:
        """One job of `l2m_cli.py` with ``$L2DATA`` and the working folder; its answer."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(dict(job, l2data=str(l2data), cwd=str(cwd))) + "\n")
        self._proc.stdin.flush()
        answer = self._proc.stdout.readline()
        if not answer:
            self._errors.seek(0)
            raise RuntimeError(f"the l2metrics process stopped:\n{self._errors.read()[-3000:]}")
        return dict(json.loads(answer))

    def cli(self, args: list[str], l2data: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
        """``python -m l2metrics ARGS`` with ``$L2DATA`` and the working folder, as a process gives it."""
        got = self.call({"cli": args}, l2data, cwd)
        return subprocess.CompletedProcess(["l2metrics", *args], got["returncode"], got["stdout"], got["stderr"])


def _l2m(args: list[str], l2data: Path, cwd: Path, l2m: L2metrics | None) -> subprocess.CompletedProcess[str]:
    if l2m is not None:
        return l2m.cli(args, l2data, cwd)
    with L2metrics() as once:
        return once.cli(args, l2data, cwd)


def store_ste_l2m(ste_parent: Path, mode: str, l2data: Path, l2m: L2metrics | None = None) -> None:
    """``l2metrics -R -s MODE -l STE_PARENT``: store every STE run under the folder (in ``l2m``,
    else in a process of its own)."""
    l2data.mkdir(parents=True, exist_ok=True)
    out = _l2m(["-R", "-s", mode, "-l", str(ste_parent)], l2data, l2data, l2m)
    if out.returncode:
        raise RuntimeError(f"l2metrics could not store the STE runs:\n{out.stderr[-3000:]}")


def run_l2metrics(log_parent: Path, option: OptionSet, l2data: Path, out_dir: Path,
                  data_range: Path | None = None, l2m: L2metrics | None = None) -> dict[str, L2mResult]:
    """``l2metrics -R -l LOG_PARENT`` with the option set (in ``l2m``, else in a process of its
    own); run folder name -> its values."""
    out_dir.mkdir(parents=True, exist_ok=True)
    args = ["-R", "-l", str(log_parent), "-O", str(out_dir), "-o", "diff", "--no-plot",
            "--no-save-settings", *option.flags]
    if data_range is not None:
        args += ["-d", str(data_range)]
    proc = _l2m(args, l2data, out_dir, l2m)
    lifetime_tsv = out_dir / "diff.tsv"
    failed = _failed_run(_output(proc))
    if not lifetime_tsv.exists():  # the first run stopped it: name it, and the caller goes on
        return {failed or "*": L2mResult(error=_last_error(proc))}
    lifetime = pd.read_csv(lifetime_tsv, sep="\t")
    regimes = pd.read_csv(out_dir / "diff_regime.tsv", sep="\t")
    dicts = json.loads((out_dir / "diff.json").read_text())
    results: dict[str, L2mResult] = {}
    for (_, life), entry in zip(lifetime.iterrows(), dicts):
        run = str(life["run_id"])
        result = L2mResult()
        skip = {"run_id", "complexity", "difficulty", "scenario_type", "metrics_column", "min",
                "max", "num_lx", "num_ex", "runtime", "0"}
        result.lifetime = {k: _num(v) for k, v in life.items() if k not in skip}
        result.summary = {k: _num(life[k]) for k in SUMMARY if k in life}
        result.tasks = entry.get("task_metrics", {})
        mine = regimes[regimes["run_id"].astype(str) == run]
        result.regimes = mine.to_dict(orient="records")
        results[run] = result
    if failed is not None and failed not in results:
        results[failed] = L2mResult(error=_last_error(proc))
    return results


def _output(proc: subprocess.CompletedProcess[str]) -> str:
    """What l2metrics printed: its log goes to standard output (its handler writes through
    ``tqdm.write``, whose default file is stdout), tracebacks and progress bars to stderr."""
    return "\n".join(part.replace("\r", "\n") for part in (proc.stdout or "", proc.stderr or ""))


def _failed_run(output: str) -> str | None:
    """The run l2metrics was computing when it stopped with an error (it logs "Starting
    metrics report for NAME" before each run of a recursive call and stops at an error)."""
    if "Error" not in output and "Traceback" not in output:
        return None
    marker = "Starting metrics report for "
    starts = [ln.split(marker, 1)[1].strip() for ln in output.splitlines() if marker in ln]
    return starts[-1] if starts else None


def _last_error(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in _output(proc).splitlines() if ln.strip()]
    # the exception line ending a traceback, else a logged ERROR (progress bars share stderr)
    errors = [ln for ln in lines if ln.split(":", 1)[0].endswith(("Error", "Exception"))] or \
        [ln for ln in lines if "ERROR" in ln]
    return (errors[-1] if errors else (lines[-1] if lines else f"exit {proc.returncode}"))[:300]


def _num(value: Any) -> float | None:
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) or math.isinf(f) else f


def run_sylla(log: Path, stes: list[Path], option: OptionSet,
              data_range: Path | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """sylla's tidy rows and per-task details for the same log and choices (in-process)."""
    from sylla.metrics.result import compute_metrics

    params = dict(option.params)
    if data_range is not None:
        params["data_range"] = str(data_range)
    if option.compat:
        params["l2metrics_compat"] = "true"
    result = compute_metrics(log, ste=stes, params=params, perf=option.perf, progress=False)
    details = next(iter(result.details.values()), {})
    return result.rows, {task.lower(): d for task, d in details.items()}


# ----------------------------------------------------------------------------- comparing

@dataclass
class Comparison:
    compared: int = 0
    mismatches: list[str] = field(default_factory=list)

    def check(self, where: str, mine: float | None, theirs: float | None) -> None:
        self.compared += 1
        if theirs is None and mine is None:
            return
        if theirs is None or mine is None or not math.isclose(mine, theirs, rel_tol=REL,
                                                               abs_tol=ABS):
            self.mismatches.append(f"{where}: sylla {mine!r} vs l2metrics {theirs!r}")


def _value(frame: pd.DataFrame) -> float | None:
    values = frame.value.dropna()
    if len(values) > 1:
        raise AssertionError(f"several sylla rows for one value:\n{frame}")
    return None if values.empty else float(values.iloc[0])


REGIME_METRICS = {"saturation": "saturation", "exp_to_sat": "exp_to_sat",
                  "term_perf": "term_perf", "exp_to_term_perf": "exp_to_term_perf"}
#: l2metrics' task metrics that are not compared: they are not computed from the log's data
#: (``min``/``max``/``num_lx``/``num_ex`` are checked by the ``--format l2metrics`` tests)
#: the preprocessed data's range and the row counts, per task and over the run
SUMMARY = ("min", "max", "num_lx", "num_ex")


def _flat(value: Any) -> list[float | None]:
    """A value or (nested) list of values as one flat list (l2metrics stores a lone value of
    a list-valued entry as the value itself, and maintenance values as runs of regimes)."""
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _flat(v)]
    if value is None:
        return []
    return [_num(value)]


#: task intermediates with one value per STE run: l2metrics lists them in its store's order
#: (``-s a`` prepends each new run), sylla in ``--ste`` order, so they compare as sorted lists
PER_STE_RUN = frozenset({"ste_rel_perf_vals", "ste_saturation_vals", "ste_exp_to_sat_vals",
                         "se_saturation_vals", "se_exp_to_sat_vals", "sample_efficiency_vals"})


def _sorted(values: list[Any]) -> list[Any]:
    """The list sorted with NaN (``None``) last."""
    return sorted(values, key=lambda v: (v is None or v != v, 0.0 if v is None else v))


def compare(theirs: L2mResult, rows: pd.DataFrame,
            details: dict[str, dict[str, Any]] | None = None) -> Comparison:
    """Every number l2metrics gives, against sylla's: lifetime, per task (with the
    intermediates behind a task's values), per transfer pair (the value of every block of the
    pair), per regime. Task names compare case-insensitively, as l2metrics lower-cases them."""
    c = Comparison()
    details = details or {}
    rows = rows.assign(key=rows.task.map(lambda t: None if t is None or pd.isna(t)
                                         else str(t).lower()))
    life = rows[rows.task.isna() & rows.block.isna()]
    for metric, value in theirs.lifetime.items():
        c.check(f"lifetime {metric}", _value(life[life.metric == metric]), value)
    run_level = details.get("", {})
    for metric, value in theirs.summary.items():
        mine = run_level.get(metric) if metric in ("min", "max") else sum(
            int(d.get(metric, 0)) for t, d in details.items() if t)
        c.check(f"run {metric}", _num(mine), value)
    per_task = rows[rows.task.notna() & rows.block.isna() & rows.phase.isna()]
    blocks = rows[rows.block.notna()]
    for task, values in theirs.tasks.items():
        mine_details = details.get(task.lower(), {})
        for metric, value in values.items():
            if metric in SUMMARY:
                c.check(f"task {metric} {task}", _num(mine_details.get(metric)), _num(value))
                continue
            if isinstance(value, dict):
                for other, vals in value.items():
                    key = f"{task}->{other}".lower()
                    mine = per_task[(per_task.metric == metric) & (per_task.key == key)]
                    c.check(f"pair {metric} {key}", _value(mine), _num(vals[0]))
                    every = blocks[(blocks.metric == metric) & (blocks.key == key)]
                    ours = every.sort_values("block").value.tolist()
                    c.check(f"pair {metric} {key} count", len(ours), len(vals))
                    for i, (a, b) in enumerate(zip(ours, vals)):
                        c.check(f"pair {metric} {key}[{i}]", a, _num(b))
                continue
            if metric in ("recovery_times", "se_task_saturation", "se_task_exp_to_sat") or \
                    metric.endswith("_vals") or metric.startswith("maintenance_val_"):
                theirs_list = _flat(value)
                ours_list = _flat(mine_details.get(metric))
                if not isinstance(value, list) and theirs_list == [None]:
                    theirs_list = []  # NaN: l2metrics has no such value for the task
                if metric in PER_STE_RUN:  # one value per STE run, in the order they were stored
                    theirs_list, ours_list = _sorted(theirs_list), _sorted(ours_list)
                c.check(f"task {metric} {task} count", len(ours_list), len(theirs_list))
                for i, (a, b) in enumerate(zip(ours_list, theirs_list)):
                    c.check(f"task {metric} {task}[{i}]", a, b)
                continue
            mine = per_task[(per_task.metric == metric) & (per_task.key == task.lower())]
            c.check(f"task {metric} {task}", _value(mine), _num(value))
    for regime in theirs.regimes:
        number = int(regime["regime_num"])
        here = blocks[blocks.block == number]
        for theirs_name, mine_name in REGIME_METRICS.items():
            if theirs_name in regime:
                c.check(f"regime {number} {theirs_name}",
                        _value(here[here.metric == mine_name]), _num(regime[theirs_name]))
        if "avg_perf" in regime:
            mine = here[here.metric.isin(["avg_train_perf", "avg_eval_perf"])]
            c.check(f"regime {number} avg_perf", _value(mine), _num(regime["avg_perf"]))
    return c
