"""Log readers, one module per format, and format detection.

``read_log(path, perf, fmt=None)`` detects the format (an l2logger directory has
``logger_info.json``, and a file whose header holds l2logger's columns is one of its data files;
a learnkit directory has ``worker-env-K`` folders; a file or directory holding a
continual-imitation ``training_log.log`` is iscil; any other file is plain, its suffix naming
CSV/TSV/JSONL/Parquet) unless ``fmt`` overrides it. ``options`` are the
resolved metric parameters (the iscil reader takes ``iscil_filter`` and ``iscil_compat``).

Every format is read by a ``Reader``: a function from the path and one ``ReadRequest`` (what
the caller asked for) to the episode table. ``READERS`` lists them by format; each entry loads
its reader module (and pandas, pyarrow or numpy) only when its format is read. A new format is
a module with its reader function, an entry here, and ``sniff.py`` taught to recognise it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from .sniff import ISCIL_LOG, is_l2logger, is_l2logger_file, is_learnkit, kind_of

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
        log = path / ISCIL_LOG
        why = (f": its {ISCIL_LOG} is a directory, not a file" if log.is_dir() else
               f": its {ISCIL_LOG} holds no phase or evaluation line" if log.exists() else "")
        raise MetricsError("directory is neither an l2logger log (logger_info.json), a learnkit "
                           "log (worker-env-K folders) nor a continual-imitation log (a "
                           f"{ISCIL_LOG} file){why}; use --log-format", str(path),
                           exit_code=EXIT_USAGE)
    if is_l2logger_file(path):
        return "l2logger"
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


@dataclass(frozen=True)
class ReadRequest:
    """What a caller asks of a reader (see ``read_log``); each reader uses what its format needs."""

    perf: str | None = None
    progress: bool | None = None
    allow_partial: bool = False
    duplicates: str = "warn"
    options: Mapping[str, Any] = field(default_factory=dict)
    stream: bool = False
    #: the format being read (the plain reader reads four)
    fmt: str = "auto"


class Reader(Protocol):
    """One log format's reader: the path and the request to the episode table."""

    def __call__(self, path: Path, request: ReadRequest) -> EpisodeLog: ...


def _l2logger(path: Path, request: ReadRequest) -> EpisodeLog:
    from .l2logger import read_l2logger, read_l2logger_file  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

    if path.is_file():
        return read_l2logger_file(path, request.perf, request.progress,
                                  allow_partial=request.allow_partial)
    return read_l2logger(path, request.perf, request.progress, allow_partial=request.allow_partial, stream=request.stream)


def _learnkit(path: Path, request: ReadRequest) -> EpisodeLog:
    from .learnkit import read_learnkit  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

    return read_learnkit(path, request.perf or DEFAULT_PERF, allow_partial=request.allow_partial)


def _iscil(path: Path, request: ReadRequest) -> EpisodeLog:
    from .iscil import read_iscil  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

    return read_iscil(path, str(request.options.get("iscil_filter") or ""), bool(request.options.get("iscil_compat", False)))


def _plain(path: Path, request: ReadRequest) -> EpisodeLog:
    if path.is_dir():
        raise MetricsError(f"--log-format {request.fmt} needs a file, not a directory", str(path),
                           exit_code=EXIT_USAGE)
    from .plain import read_plain  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

    return read_plain(path, request.perf or DEFAULT_PERF, request.fmt, request.progress,
                      allow_partial=request.allow_partial, duplicates=request.duplicates, start=0)


#: every format's reader (``FORMATS`` but "auto", which ``detect`` resolves)
READERS: dict[str, Reader] = {
    "l2logger": _l2logger, "learnkit": _learnkit, "iscil": _iscil,
    "csv": _plain, "tsv": _plain, "jsonl": _plain, "parquet": _plain,
}


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
    reader = READERS.get(fmt)
    if reader is None:
        raise MetricsError(f"unknown log format {fmt!r} (one of {', '.join(FORMATS)})",
                           exit_code=EXIT_USAGE)
    request = ReadRequest(perf, progress, allow_partial, duplicates, options or {}, stream, fmt)
    return reader(path, request)
