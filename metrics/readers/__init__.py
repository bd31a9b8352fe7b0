"""Log readers, one module per format, and format detection.

``read_log(path, perf, fmt=None)`` detects the format (an l2logger directory has
``logger_info.json``; a learnkit directory has ``block-report.tsv`` or ``worker-env-K`` folders; a
file or directory holding a continual-imitation ``training_log.log`` is iscil; any other file is
plain, its suffix naming CSV/TSV/JSONL/Parquet) unless ``fmt`` overrides it. ``options`` are the
resolved metric parameters (the iscil reader takes ``iscil_filter`` and ``iscil_compat``).
"""

from __future__ import annotations

from pathlib import Path

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from .sniff import is_l2logger, is_learnkit, kind_of

FORMATS = ("auto", "csv", "tsv", "jsonl", "parquet", "l2logger", "learnkit", "iscil")


def detect(path: Path, search: bool = True) -> str:
    """The format of ``path``; ``search=False`` counts only a continual-imitation log directly
    in a directory, not one further below (see `is_iscil`)."""
    if not path.exists():
        raise MetricsError("no such file or directory", str(path), exit_code=EXIT_USAGE)
    if path.is_dir():
        if is_l2logger(path):
            return "l2logger"
        if is_learnkit(path):
            return "learnkit"
        from .iscil import is_iscil  # noqa: PLC0415 - lazy: the reader module is large, loaded only when the folder may be one

        if is_iscil(path, search):
            return "iscil"
        raise MetricsError("directory is neither an l2logger log (logger_info.json) nor a "
                           "learnkit log (block-report.tsv); use --log-format", str(path),
                           exit_code=EXIT_USAGE)
    kind = kind_of(path)
    if kind is None:
        from .iscil import is_iscil  # noqa: PLC0415 - lazy: the reader module is large, loaded only when the file may be one

        if is_iscil(path):
            return "iscil"
        with open(path, "rb") as handle:
            head = handle.read(4096)
        if head.startswith(b"PAR1"):
            return "parquet"
        if head.lstrip().startswith(b"{"):
            return "jsonl"
        return "tsv" if b"\t" in head.split(b"\n")[0] else "csv"
    return kind


DEFAULT_PERF = "reward"


def read_log(path: str | Path, perf: str | None = None, fmt: str | None = None,
             progress: bool | None = None, *, allow_partial: bool = False,
             duplicates: str = "warn", options: dict | None = None,
             stream: bool = False) -> EpisodeLog:
    """Read a log of any format. ``perf=None`` means the log's own default: the first of an
    l2logger log's ``metrics_columns``, else ``reward``. ``allow_partial`` turns suspect but
    unambiguous data (a cut last line) into warnings; ``duplicates`` says whether an episode
    logged twice with different values in a plain log is a warning or an error; ``options``
    are the metric parameters (``-P``) a reader may need (``iscil_filter``, ``iscil_compat``).
    ``stream=True`` lets a reader return runs it aligned itself block by block (`EpisodeLog.runs`)
    when that saves memory; callers align them with `sylla.metrics.align.align`."""
    path = Path(path)
    if fmt in (None, "auto"):
        fmt = detect(path)
    elif not path.exists():
        raise MetricsError("no such file or directory", str(path), exit_code=EXIT_USAGE)
    if fmt == "l2logger":
        from .l2logger import read_l2logger  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        return read_l2logger(path, perf, progress, allow_partial=allow_partial, stream=stream)
    if fmt == "learnkit":
        from .learnkit import read_learnkit  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        return read_learnkit(path, perf or DEFAULT_PERF, allow_partial=allow_partial)
    if fmt == "iscil":
        from .iscil import read_iscil  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

        options = options or {}
        return read_iscil(path, str(options.get("iscil_filter") or ""),
                          bool(options.get("iscil_compat", False)))
    if fmt in ("csv", "tsv", "jsonl", "parquet"):
        if path.is_dir():
            raise MetricsError(f"--log-format {fmt} needs a file, not a directory", str(path),
                               exit_code=EXIT_USAGE)
        from .plain import read_plain  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        return read_plain(path, perf or DEFAULT_PERF, fmt, progress,
                          allow_partial=allow_partial, duplicates=duplicates)
    raise MetricsError(f"unknown log format {fmt!r} (one of {', '.join(FORMATS)})",
                       exit_code=EXIT_USAGE)
