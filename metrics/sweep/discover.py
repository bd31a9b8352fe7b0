"""Find every run below a sweep root and the group keys that place it in the evaluation.

A run is one of

- an l2logger directory (``logger_info.json``): its scalar ``scenario_info.json`` and
  ``logger_info.json`` entries are group keys, as l2metrics' recursive mode reports them,
  except those with the same value in every run (`constant_metadata`);
- a learnkit directory (``block-report.tsv`` or ``worker-env-K`` folders);
- a plain log (CSV, TSV, JSON Lines, Parquet) with exactly one syllabus beside it in the same
  folder (or, when there are several, the syllabus named like the log: ``x.csv`` + ``x.json``).

A syllabus inside an l2logger or learnkit directory is used to align it. Nothing below a run
directory is searched further, and hidden folders, the sweep's own output and the STE runs are
skipped. ``--group-by`` names the path parts below the root (``{agent}/{seed}/{name}``); its keys
win over metadata keys of the same name.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from sylla.grammar.syllabus.detect import is_syllabus_file

from ..errors import EXIT_USAGE, MetricsError
from ..readers import detect

#: l2logger bookkeeping that says nothing about the experiment
_NOT_KEYS = {"metrics_columns", "log_format_version"}
#: the tidy metric columns; a group key may not take one of these names
RESERVED = {"run", "task", "block", "phase", "metric", "value", "partial"}
_PLAIN = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
          ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
#: l2logger's own JSON files, never syllabi
_INFO = ("logger_info.json", "scenario_info.json")


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to compute one run, as plain strings (it crosses processes
    and the network)."""

    id: str                     # path below the root, POSIX style: the run's name in outputs
    path: str                   # absolute path of the log file or run directory
    format: str                 # l2logger | learnkit | csv | tsv | jsonl | parquet
    syllabus: str | None        # absolute path, or None
    groups: tuple[tuple[str, str], ...] = field(default=())

    def files(self) -> list[tuple[str, str]]:
        """(role, absolute path) of every input file, in a stable order: the cache key hashes
        their content."""
        out: list[tuple[str, str]] = []
        root = str(Path(self.path))
        if os.path.isdir(root):
            # plain strings, not Path objects: a re-run lists every file of every run
            cut = len(root.rstrip(os.sep)) + 1
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames.sort()
                prefix = dirpath[cut:].replace(os.sep, "/") + "/" if dirpath != root else ""
                for name in sorted(filenames):
                    out.append((prefix + name, os.path.join(dirpath, name)))
        else:
            out.append(("log", root))
        if self.syllabus is not None and not any(p == self.syllabus for _, p in out):
            out.append(("syllabus", self.syllabus))
        return out


class Pattern:
    """``{agent}/{seed}/{name}``: one segment per folder level below the root. A segment may mix
    text and fields (``seed{seed}``); ``*`` ignores a level. The last segment of a plain log
    matches its file name without the suffix."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.segments: list[re.Pattern[str] | None] = []
        self.keys: list[str] = []
        parts = [p for p in text.strip("/").split("/")]
        if not text.strip("/") or any(not p for p in parts):
            raise MetricsError(f"--group-by {text!r}: empty folder level", exit_code=EXIT_USAGE)
        for part in parts:
            if part == "*":
                self.segments.append(None)
                continue
            regex, pos = "", 0
            for m in re.finditer(r"\{([^{}]*)\}", part):
                name = m.group(1)
                if not name.isidentifier():
                    raise MetricsError(f"--group-by {text!r}: {{{name}}} is not a name like "
                                       "{agent}", exit_code=EXIT_USAGE)
                if name in self.keys:
                    raise MetricsError(f"--group-by {text!r}: {{{name}}} appears twice",
                                       exit_code=EXIT_USAGE)
                self.keys.append(name)
                regex += re.escape(part[pos:m.start()]) + f"(?P<{name}>.+?)"
                pos = m.end()
            rest = part[pos:]
            if "{" in rest or "}" in rest:
                raise MetricsError(f"--group-by {text!r}: unbalanced brace in {part!r}",
                                   exit_code=EXIT_USAGE)
            self.segments.append(re.compile(regex + re.escape(rest) + r"\Z"))

    def match(self, parts: list[str]) -> dict[str, str]:
        """The fields of a run's path parts below the root, or a MetricsError saying why not."""
        if len(parts) != len(self.segments):
            raise MetricsError(f"{'/'.join(parts)!r} has {len(parts)} level(s) below the root; "
                               f"--group-by {self.text!r} has {len(self.segments)}")
        out: dict[str, str] = {}
        for part, seg in zip(parts, self.segments):
            if seg is None:
                continue
            m = seg.match(part)
            if m is None:
                raise MetricsError(f"{part!r} does not match {seg.pattern!r} of --group-by "
                                   f"{self.text!r}")
            out.update(m.groupdict())
        return out


@dataclass
class Discovery:
    runs: list[RunSpec]
    #: (path, message): runs that were found but cannot be swept (a pattern mismatch, ...)
    problems: list[tuple[str, str]]
    keys: list[str]
    #: metadata keys with the same value in every run, left out of the groups
    #: (`constant_metadata`)
    constant: dict[str, str] = field(default_factory=dict)


def _is_syllabus_file(path: Path) -> bool:
    """`is_syllabus_file`, imported when a folder is walked (the grammar costs ~45 ms)."""
    return is_syllabus_file(path)


def _json_lines(path: Path) -> bool:
    """A ``.json`` file holds a log only as JSON Lines: two or more lines, each an object."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(1 << 16)
    except OSError:
        return False
    lines = [line.strip() for line in head.splitlines()[:3] if line.strip()]
    return len(lines) >= 2 and all(line.startswith(b"{") for line in lines)


def _metadata(run: Path) -> dict[str, str]:
    keys: dict[str, str] = {}
    for name in ("logger_info.json", "scenario_info.json"):
        try:
            data = json.loads((run / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # the reader reports a bad logger_info.json with its location
        if isinstance(data, dict):
            for k, v in data.items():
                if k not in _NOT_KEYS and k not in RESERVED and isinstance(v, (str, int, float, bool)):
                    keys[str(k)] = str(v)
    return keys


def _directory_format(path: Path) -> str | None:
    """The format of a run directory as `sylla metrics` detects it (so a directory format added
    to the readers is swept too), or None for a folder that only holds runs. A folder counts
    as a continual-imitation run only when its ``training_log.log`` is directly in it: each
    experiment folder is one run, as the reference script reads them."""
    try:
        return detect(path, search=False)
    except MetricsError:
        return None


def discover(root: str | Path, group_by: str | None = None,
             exclude: Iterable[str | Path] = ()) -> Discovery:
    """Walk ``root`` in sorted order and return the runs, problems and the group key names."""
    base = Path(root).resolve()
    if not base.is_dir():
        raise MetricsError("sweep root is not a directory", str(root), exit_code=EXIT_USAGE)
    pattern = Pattern(group_by) if group_by else None
    skip = {Path(p).resolve() for p in exclude}
    found: list[tuple[Path, str, Path | None, dict[str, str]]] = []
    problems: list[tuple[str, str]] = []

    def walk(folder: Path) -> None:
        try:
            entries = sorted(folder.iterdir(), key=lambda p: p.name)
        except OSError as exc:
            problems.append((str(folder), f"cannot list: {exc.strerror}"))
            return
        dirs = [p for p in entries if p.is_dir() and not p.name.startswith(".")
                and p.resolve() not in skip]
        files = [p for p in entries if p.is_file() and not p.name.startswith(".")
                 and p.resolve() not in skip]
        syllabi = [p for p in files if _is_syllabus_file(p)]
        for log in files:
            kind = _PLAIN.get(log.suffix.lower())
            if kind is None or log in syllabi or not syllabi:
                continue
            if log.suffix.lower() == ".json" and not _json_lines(log):
                continue  # package.json, a settings file: JSON, but not a log of episodes
            if len(syllabi) == 1:
                found.append((log, kind, syllabi[0], {}))
                continue
            named = [s for s in syllabi if s.stem == log.stem]
            if named:
                found.append((log, kind, named[0], {}))
            else:
                problems.append((str(log), "several syllabi beside this log ("
                                 + ", ".join(s.name for s in syllabi)
                                 + "); name the one it ran like the log (x.csv + x.json)"))
        for d in dirs:
            kind = _directory_format(d)
            if kind is None:
                walk(d)
                continue
            inner = [p for p in sorted(d.iterdir()) if p.name not in _INFO and p.is_file()
                     and _is_syllabus_file(p)]
            found.append((d, kind, inner[0] if len(inner) == 1 else None,
                          _metadata(d) if kind == "l2logger" else {}))

    walk(base)
    placed: list[tuple[Path, str, Path | None, dict[str, str], dict[str, str]]] = []
    for path, kind, syllabus, meta in found:
        rel = path.relative_to(base)
        groups = dict(meta)
        if pattern is not None:
            parts = list(rel.parts)
            if path.is_file():
                parts[-1] = path.stem
            try:
                groups.update(pattern.match(parts))
            except MetricsError as exc:
                problems.append((str(path), exc.message))
                continue
        placed.append((path, kind, syllabus, meta, groups))
    constant = constant_metadata([meta for *_, meta, _ in placed],
                                 set(pattern.keys) if pattern is not None else set())
    runs: list[RunSpec] = []
    keys: list[str] = []
    for path, kind, syllabus, _meta, groups in placed:
        groups = {k: v for k, v in groups.items() if k not in constant}
        for k in groups:
            if k not in keys:
                keys.append(k)
        runs.append(RunSpec(id=path.relative_to(base).as_posix(), path=str(path), format=kind,
                            syllabus=str(syllabus) if syllabus else None,
                            groups=tuple(groups.items())))
    if pattern is not None:  # the pattern's order first: it is the user's own
        keys = pattern.keys + [k for k in keys if k not in pattern.keys]
    clash = sorted(RESERVED & set(keys))
    if clash:
        raise MetricsError(f"group key(s) {', '.join(clash)} clash with the metric columns; "
                           "rename them in --group-by", exit_code=EXIT_USAGE)
    runs.sort(key=lambda r: r.id)
    return Discovery(runs=runs, problems=problems, keys=keys, constant=constant)


def constant_metadata(metas: list[dict[str, str]], named: set[str]) -> dict[str, str]:
    """The metadata keys (``scenario_info.json``, ``logger_info.json``) that every run has
    with the same value, except those ``--group-by`` names. Such a key tells no run from
    another: in a group name it only lengthens every name alike (``agentA/1-low/2-medium/
    custom``), so that ``sylla compare --normalize agentA`` found no group of that name
    (issue 38). A key some runs lack, or hold with another value, stays."""
    if not metas:
        return {}
    first = metas[0]
    return {k: v for k, v in first.items()
            if k not in named and all(m.get(k) == v for m in metas[1:])}
