"""The content-keyed cache of per-run results.

A run's key is a SHA-256 over sylla's version, the options (`Options.key_dict`), and the name
and content digest of every input file (log files, syllabus; STE files through the options).
An entry is one Parquet file ``<cache>/<k[:2]>/<k>.parquet`` holding the run's rows, its
warnings in the file metadata; it is written to a temporary name and renamed, so an interrupted
sweep leaves whole entries or none, and the next sweep recomputes only what is missing.

Hashing every log on every sweep would cost more than the 2 s a no-change re-run may take, so a
stat index (path -> size, mtime in ns, digest), as git's index does, lets unchanged files skip
the hashing; a file whose size or mtime moved is hashed again, and if its content did not
change its entry is still found.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from sylla.kit.atomic import default_mode, replace_file
from sylla.kit.version import __version__

if TYPE_CHECKING:
    import pandas as pd

    from .discover import RunSpec
    from .options import Options

INDEX = "stat-index.json"


def file_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def digest_files(spec: "RunSpec") -> dict[str, tuple[int, int, str]]:
    """Absolute path -> (size, mtime_ns, sha256) of each input file of a run."""
    out: dict[str, tuple[int, int, str]] = {}
    for _, path in spec.files():
        st = os.stat(path)
        out[path] = (st.st_size, st.st_mtime_ns, file_digest(path))
    return out


def run_key(spec: "RunSpec", options: "Options", digests: dict[str, tuple[int, int, str]],
            files: list[tuple[str, str]] | None = None) -> str:
    """The cache key of a run. File roles (paths inside the run directory), not absolute paths,
    go in: a moved or copied sweep root keeps its cache."""
    named = [[role, digests[path][2]] for role, path in (files or spec.files())]
    payload = {"v": 1, "format": spec.format, "options": options.key_dict(), "files": named}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def entry_path(cache_dir: str | Path, key: str) -> Path:
    return Path(cache_dir) / key[:2] / f"{key}.parquet"


def atomic_write(target: Path, write: Any) -> None:
    """Call ``write(tmp_path)`` then rename over ``target``: readers see the old file or the
    new one, never half of one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, write, mode=default_mode(), prefix=f".{target.name}.")



def write_entry(cache_dir: str | Path, key: str, rows: "pd.DataFrame", warnings: list[str]) -> None:
    import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow.parquet loads only when used

    table = pa.Table.from_pandas(rows, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[b"sylla.warnings"] = json.dumps(warnings).encode()
    table = table.replace_schema_metadata(meta)
    atomic_write(entry_path(cache_dir, key), lambda tmp: pq.write_table(table, tmp))


def read_entry(cache_dir: str | Path, key: str) -> tuple["pd.DataFrame", list[str]] | None:
    """The rows and warnings of an entry, or None if it is missing or unreadable (a damaged
    entry is recomputed, never trusted)."""
    import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow.parquet loads only when used

    path = entry_path(cache_dir, key)
    try:
        table = pq.read_table(path)
    except (OSError, ValueError):
        return None
    meta = table.schema.metadata or {}
    try:
        warnings = json.loads(meta.get(b"sylla.warnings", b"[]"))
    except ValueError:
        return None
    return table.to_pandas(), list(warnings)


class StatIndex:
    """path -> (size, mtime_ns, digest), loaded from and saved to the cache directory."""

    def __init__(self, cache_dir: str | Path) -> None:
        self.path = Path(cache_dir) / INDEX
        self.entries: dict[str, list[Any]] = {}
        self.changed = False
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                self.entries = data
        except (OSError, ValueError):
            pass

    def known(self, files: list[tuple[str, str]]) -> dict[str, tuple[int, int, str]] | None:
        """The digests of every file of a run (`RunSpec.files`) if none changed since it was
        hashed."""
        out: dict[str, tuple[int, int, str]] = {}
        for _, path in files:
            entry = self.entries.get(path)
            if entry is None:
                return None
            try:
                st = os.stat(path)
            except OSError:
                return None
            if st.st_size != entry[0] or st.st_mtime_ns != entry[1]:
                return None
            out[path] = (entry[0], entry[1], entry[2])
        return out

    def update(self, digests: dict[str, tuple[int, int, str]]) -> None:
        for path, (size, mtime, digest) in digests.items():
            if self.entries.get(path) != [size, mtime, digest]:
                self.entries[path] = [size, mtime, digest]
                self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        text = json.dumps(self.entries, sort_keys=True)

        def write(tmp: str) -> None:
            Path(tmp).write_text(text, encoding="utf-8")

        atomic_write(self.path, write)
        self.changed = False


def summary_key(runs: list[tuple[str, str, Any]], groups: list[str], compare: str | None,
                replicate: str) -> str:
    """The key of a sweep's summaries: every run's id, cache key and group values, and the
    settings of the aggregation."""
    from .aggregate import CONFIDENCE, RESAMPLES, SEED  # noqa: PLC0415 - lazy: start-up, sylla.metrics.sweep.aggregate loads only when used

    payload = {"v": 1, "sylla": __version__, "runs": [[i, k, list(map(list, g))] for i, k, g in runs],
               "groups": groups, "compare": compare, "replicate": replicate,
               "bootstrap": [SEED, RESAMPLES, CONFIDENCE]}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def write_summary(cache_dir: str | Path, key: str, summary: "pd.DataFrame",
                  compared: "pd.DataFrame", notes: list[str]) -> None:
    import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow.parquet loads only when used

    for name, frame in (("summary", summary), ("compare", compared)):
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[b"sylla.notes"] = json.dumps(notes).encode()
        table = table.replace_schema_metadata(meta)
        atomic_write(Path(cache_dir) / "summaries" / f"{name}-{key}.parquet",
                     lambda tmp, t=table: pq.write_table(t, tmp))


def read_summary(cache_dir: str | Path | None, key: str
                 ) -> tuple["pd.DataFrame", "pd.DataFrame", list[str]] | None:
    import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow.parquet loads only when used

    if cache_dir is None:
        return None
    frames = []
    notes: list[str] = []
    for name in ("summary", "compare"):
        try:
            table = pq.read_table(Path(cache_dir) / "summaries" / f"{name}-{key}.parquet")
            notes = json.loads((table.schema.metadata or {}).get(b"sylla.notes", b"[]"))
        except (OSError, ValueError):
            return None
        frames.append(table.to_pandas())
    return frames[0], frames[1], list(notes)
