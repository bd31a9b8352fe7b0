"""Log readers, one module per format, and the one list of formats: ``READERS``.

Every format is a `Reader`: it says whether a path is a log of its format (`Reader.claims`),
reads it into the episode table (`Reader.read`, from the path and one ``ReadRequest``), and
declares what its logs ask of the pipeline (the plugin inputs they carry, whether it checks a
syllabus itself, whether sylla watch can follow them). ``READERS`` lists them by format name, in
the order detection asks them: an l2logger directory has ``logger_info.json`` (and a file whose
header holds l2logger's columns is one of its data files); a learnkit directory has
``worker-env-K`` folders; a file or directory holding a continual-imitation
``training_log.log`` is iscil; any other file is plain, its suffix (else its first bytes) naming
CSV/TSV/JSONL/Parquet. ``FORMATS`` (what ``--log-format`` takes) and ``FOLLOWED`` (what
``sylla watch`` takes) are read off it, so a new format is a module with its reader function and
one `Reader` here.

Importing this module loads only the standard library: the command modules build their
``--log-format`` choices from it at start-up, and each reader loads its module (and pandas,
pyarrow or numpy) only when its format is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import EXIT_USAGE, MetricsError
from .sniff import ISCIL_LOG, is_l2logger, is_l2logger_file, is_learnkit, kind_of

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus

    from ..data import EpisodeLog

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


class Reader:
    """One log format: how a path is told to be one, how it is read, and what its logs ask of the
    pipeline. The class attributes are the defaults a format keeps unless it says otherwise;
    `reader_for` answers with them for a log built by hand in a format no reader knows."""

    #: the format's name, as ``--log-format`` takes it
    name: str = ""
    #: sylla watch (and report) can follow a growing log of this format
    follows: bool = True
    #: the plugin inputs (`sylla.metrics.registry.Metric.inputs`) its logs carry; a plugin
    #: reading none of them does not run unless ``--metric`` names it. None: every input
    provides: frozenset[str] | None = None
    #: the runs it returns (`EpisodeLog.runs`) are built from its per-episode table too, so a
    #: step that renames the table's tasks (variant-agnostic mode) drops them and aligns the
    #: table again; False: runs it returns replace the table (a streamed read)
    runs_from_frame: bool = False
    #: its logs hold a row per episode, which the schedule aligns episode by episode; False: a
    #: score per phase and task, so a syllabus is compared, and a run's progress counted, phase
    #: by phase (`checks_syllabus`)
    per_episode: bool = True

    def claims(self, path: Path, search: bool = True) -> bool:
        """Whether ``path`` (which exists) is a log of this format, told from its name, layout or
        first bytes; ``search=False``: only what is directly in a directory counts."""
        return False

    def read(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        raise MetricsError(f"no reader for log format {self.name!r}", str(path),
                           exit_code=EXIT_USAGE)

    def __call__(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        return self.read(path, request)

    def checks_syllabus(self, log: "EpisodeLog", model: "Syllabus") -> bool:
        """Check ``log`` against ``model`` itself (raising `MetricsError` at the first
        divergence) and return True, for a format that is not aligned episode by episode;
        False (the default): alignment checks the log against the schedule."""
        return False


class L2Logger(Reader):
    name = "l2logger"

    def claims(self, path: Path, search: bool = True) -> bool:
        return is_l2logger(path) or (not path.is_dir() and is_l2logger_file(path))

    def read(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        from .l2logger import read_l2logger, read_l2logger_file  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        if path.is_file():
            return read_l2logger_file(path, request.perf, request.progress,
                                      allow_partial=request.allow_partial)
        return read_l2logger(path, request.perf, request.progress,
                             allow_partial=request.allow_partial, stream=request.stream)


class Learnkit(Reader):
    name = "learnkit"

    def claims(self, path: Path, search: bool = True) -> bool:
        return is_learnkit(path)

    def read(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        from .learnkit import read_learnkit  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        return read_learnkit(path, request.perf or DEFAULT_PERF,
                             allow_partial=request.allow_partial)


class Iscil(Reader):
    """Continual-imitation logs: one score per (phase, task) evaluation and no per-episode
    training data, so only plugins that read test scores run, and a syllabus is compared phase
    by phase (`sylla.metrics.readers.iscil_syllabus`), not aligned episode by episode."""

    name = "iscil"
    provides = frozenset({"tests", "scores"})
    runs_from_frame = True
    per_episode = False

    def claims(self, path: Path, search: bool = True) -> bool:
        if not path.is_dir() and kind_of(path) is not None:
            return False  # a plain log's suffix names its format first
        from .iscil import is_iscil  # noqa: PLC0415 - lazy: the reader module is large, loaded only when the path may be one

        return is_iscil(path, search)

    def read(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        from .iscil import read_iscil  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

        return read_iscil(path, str(request.options.get("iscil_filter") or ""),
                          bool(request.options.get("iscil_compat", False)))

    def checks_syllabus(self, log: "EpisodeLog", model: "Syllabus") -> bool:
        from .iscil_syllabus import check  # noqa: PLC0415 - lazy: the syllabus schedule loads only when a syllabus is given

        check(log, model)
        return True


class Plain(Reader):
    """A table with one row per episode; ``name`` is its sub-format (the suffixes in
    `sylla.metrics.readers.sniff.SUFFIXES`)."""

    def __init__(self, name: str, *, follows: bool = True) -> None:
        self.name = name
        self.follows = follows

    def claims(self, path: Path, search: bool = True) -> bool:
        return not path.is_dir() and kind_of(path) == self.name

    def read(self, path: Path, request: ReadRequest) -> "EpisodeLog":
        if path.is_dir():
            raise MetricsError(f"--log-format {request.fmt} needs a file, not a directory",
                               str(path), exit_code=EXIT_USAGE)
        from .plain import read_plain  # noqa: PLC0415 - lazy: start-up, each reader loads pandas/pyarrow only when its format is read

        return read_plain(path, request.perf or DEFAULT_PERF, request.fmt, request.progress,
                          allow_partial=request.allow_partial, duplicates=request.duplicates,
                          start=0)


#: every format's reader, in the order `detect` asks them (a Parquet file is read whole, so
#: there is no growing one to follow)
READERS: dict[str, Reader] = {r.name: r for r in (
    L2Logger(), Learnkit(), Iscil(),
    Plain("csv"), Plain("tsv"), Plain("jsonl"), Plain("parquet", follows=False),
)}
#: what ``--log-format`` takes: "auto" (`detect`) or a format
FORMATS = ("auto", *READERS)
#: what ``sylla watch --log-format`` takes: the formats a growing log can be followed in
FOLLOWED = ("auto", *(name for name, r in READERS.items() if r.follows))
#: the pipeline's defaults, for a log built by hand in a format no reader knows
_DEFAULTS = Reader()


def reader_for(fmt: str) -> Reader:
    """The reader of ``fmt``, whose declarations the pipeline follows for a log of it."""
    return READERS.get(fmt, _DEFAULTS)


def detect(path: Path, search: bool = True) -> str:
    """The format of ``path``: the first reader that claims it, else (a file) the plain format
    its first bytes suggest. ``search=False`` counts only a continual-imitation log directly in a
    directory, not one further below (see `sylla.metrics.readers.iscil.is_iscil`)."""
    if not path.exists():
        raise MetricsError("no such file or directory", str(path), exit_code=EXIT_USAGE)
    for name, reader in READERS.items():
        if reader.claims(path, search):
            return name
    if path.is_dir():
        log = path / ISCIL_LOG
        why = (f": its {ISCIL_LOG} is a directory, not a file" if log.is_dir() else
               f": its {ISCIL_LOG} holds no phase or evaluation line" if log.exists() else "")
        raise MetricsError("directory is neither an l2logger log (logger_info.json), a learnkit "
                           "log (worker-env-K folders) nor a continual-imitation log (a "
                           f"{ISCIL_LOG} file){why}; use --log-format", str(path),
                           exit_code=EXIT_USAGE)
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.lstrip().startswith(b"{"):
        return "jsonl"
    return "tsv" if b"\t" in head.split(b"\n")[0] else "csv"


def read_log(path: str | Path, perf: str | None = None, fmt: str | None = None,
             progress: bool | None = None, *, allow_partial: bool = False,
             duplicates: str = "warn", options: dict | None = None,
             stream: bool = False) -> "EpisodeLog":
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
    return reader.read(path, request)
