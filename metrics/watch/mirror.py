"""A private copy of a growing run that holds only complete lines.

Why a mirror: every reader of ``sylla metrics`` reads files by path and treats a cut last line
as an error (or, with ``--allow-partial``, a warning). A run being written almost always ends in
a half-written line. Copying the appended bytes up to the last newline costs O(new bytes) and
lets the unchanged readers see the log exactly as it will be once that line is finished, so
the live numbers are ``sylla metrics``' numbers by construction.

A file that shrinks, changes inode, or whose first bytes change (rewritten in place) is copied
again from the start. JSON side files (``logger_info.json``) are written whole by their tools;
they are copied only once they parse, so a half-written one is never seen.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .tail import START, Position, appended

HEAD = 4096  # bytes compared to notice a file rewritten in place with the same or larger size


class Mirror:
    """Mirror ``source`` (a file or a folder tree) into a private temporary folder.

    `path` is what to hand to the readers: the mirrored file, or the mirrored folder.
    """

    def __init__(self, source: str | Path) -> None:
        self.source = Path(source).resolve()
        self._root = Path(tempfile.mkdtemp(prefix="sylla-watch-"))
        self.path = self._root / self.source.name
        self._files: dict[Path, Position] = {}
        self._json: dict[Path, bytes] = {}
        #: bumped whenever a mirrored file is copied again from the start or removed: what was
        #: read of the mirror before is then no prefix of it (an inode number alone may be
        #: reused by the file written in its place). A new file (an l2logger block folder's)
        #: leaves it: what was read stays a prefix
        self.generation = 0

    def close(self) -> None:
        """Remove the mirror (the source is never touched)."""
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> "Mirror":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def real(self, text: str) -> str:
        """``text`` (a message, a path) with the mirror's folder replaced by the source's, so
        that what the user reads names their own files."""
        return text.replace(str(self.path), str(self.source))

    def sources(self) -> list[Path]:
        """Regular files of the source, in a stable order (hidden files skipped: editors'
        swap files and the like are no part of a run)."""
        if self.source.is_file():
            return [self.source]
        if not self.source.is_dir():
            return []
        found: list[Path] = []
        for folder, dirs, files in os.walk(self.source):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found.extend(Path(folder) / f for f in sorted(files) if not f.startswith("."))
        return found

    def _target(self, source: Path) -> Path:
        if source == self.source:
            return self.path
        return self.path / source.relative_to(self.source)

    def sync(self) -> bool:
        """Bring the mirror up to date; True when anything the readers see changed."""
        changed = False
        seen = set()
        for source in self.sources():
            seen.add(source)
            try:
                if source.suffix == ".json":
                    changed |= self._sync_json(source)
                else:
                    changed |= self._sync_lines(source)
            except FileNotFoundError:  # removed between listing and reading
                continue
        for gone in [p for p in (*self._files, *self._json) if p not in seen]:
            self._files.pop(gone, None)
            self._json.pop(gone, None)
            self._target(gone).unlink(missing_ok=True)
            self.generation += 1
            changed = True
        return changed

    def _sync_json(self, source: Path) -> bool:
        data = source.read_bytes()
        if self._json.get(source) == data:
            return False
        try:
            json.loads(data)
        except ValueError:  # still being written: keep the last whole version
            return False
        target = self._target(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if source in self._json:  # rewritten (an l2logger log's columns or format version):
            self.generation += 1  # what was read under the old one is to be read again
        self._json[source] = data
        return True

    def _sync_lines(self, source: Path) -> bool:
        tracked = self._files.get(source)
        new = appended(source, tracked or START, head=HEAD)
        target = self._target(source)
        self._files[source] = new.position
        if new.fresh:
            if tracked is not None:  # a file seen before, copied again: not a new one
                self.generation += 1
            had = target.exists()
            target.unlink(missing_ok=True)
            if not new.data:  # no complete line yet: to the readers the file does not exist yet
                return had
        elif not new.data:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "ab") as out:
            out.write(new.data)
        return True
