"""A private copy of a growing run that holds only complete lines.

Why a mirror: every reader of ``sylla metrics`` reads files by path and treats a cut last line
as an error (or, with ``--allow-partial``, a warning). A run being written almost always ends in
a half-written line. Copying the appended bytes up to the last newline costs O(new bytes) and
lets the unchanged readers see the log exactly as it will be once that line is finished, so
the live numbers are ``sylla metrics``' numbers by construction.

A file that shrinks, changes inode, or whose first bytes change (rewritten in place) is copied
again from the start. JSON side files (``logger_info.json``) are written whole by their tools;
they are copied only once they parse, so a half-written one is never seen.

What did not change is not read again: a file whose inode, size and modification time are those
it had when it was last read in full is skipped, and the folder tree is listed again only when
a folder's inode or modification time changed (a file added, removed or renamed in it). A run
writes one block file at a time; the finished ones were opened and read at every update before
(issue 40: with three workers, 18 of a run's 21 files). An append always changes the size; a
timestamp tells a rewrite of the same size, or a file added to a folder, only once the file
system's clock has moved on. So a file or folder stamped within the clock's resolution of the
moment it was read is read again next time, whatever its stat says: the rule git applies to
its index ("racy git"). The resolution is taken from the stamp: a whole second (FAT and ext3
stamp in seconds, FAT in two) is given `COARSE_NS`, a finer one `FINE_NS` (Linux stamps with
its clock tick, at most 10 ms; exFAT in 10 ms). Some file systems keep no stamps worth the name
(FUSE mounts of object stores give folders a fixed time), so every `RECHECK_NS` the whole source
is listed and every file read again whatever the stamps say: what such a file system hides is
seen that much later, never missed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection

from .tail import START, Position, appended

HEAD = 4096  # bytes compared to notice a file rewritten in place with the same or larger size
#: nanoseconds within which a change may leave a timestamp as it was, for a stamp in whole
#: seconds and for a finer one (see the module docstring)
COARSE_NS = 2_000_000_000
FINE_NS = 100_000_000
#: nanoseconds after which the stamps are checked against the files themselves again
RECHECK_NS = 10_000_000_000

#: what a file's stat says of its content: inode, size, modification time (ns)
Stamp = tuple[int, int, int]


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
        #: each file's stat when it was last read in full, if old enough to be trusted
        self._stamps: dict[Path, Stamp] = {}
        #: each folder of the source as last listed (`sources`)
        self._folders: dict[Path, _Folder] = {}
        self._checked_at: int | None = None  # when every file and folder was last read
        #: how many times every file and folder was read again whatever its stamp said
        self.full_checks = 0
        #: each source file's mirrored path, made once (`_target`)
        self._targets: dict[Path, Path] = {}
        #: the mirrored files that exist (the readers' view), and a count bumped whenever
        #: one is added or removed (`mirrored`)
        self._present: set[Path] = set()
        self.layout = 0
        #: a count of the writes into (and removals of) mirrored files, and each file's count
        #: at its last one (`written_since`)
        self.writes = 0
        self._written: dict[Path, int] = {}
        #: the wall clock stamps are compared with (`settled`; a test may drive its own)
        self.clock: Callable[[], int] = time.time_ns
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

    def sources(self, dirty: set[Path] | None = None) -> list[Path]:
        """Regular files of the source, in a stable order (hidden files skipped: editors'
        swap files and the like are no part of a run), as `os.walk` lists them (top down,
        names sorted, no symlinked folder entered, a folder that cannot be listed skipped).

        Each folder's listing is kept with its inode and modification time, taken before it
        was listed, and listed again only when either changed, or when it was stamped too
        recently to be trusted (`settled`): a run that adds a block folder has that folder
        and its parent listed, not the hundreds of others. ``dirty``: the folders the file
        system's events named (see `sync`); a trusted listing of any other is taken without
        a ``stat`` of the folder."""
        if self.source.is_file():
            return [self.source]
        if not self.source.is_dir():
            return []
        found: list[Path] = []
        folders: dict[Path, _Folder] = {}
        pending = [self.source]
        while pending:
            folder = pending.pop()
            kept = self._folders.get(folder)
            if dirty is not None and kept is not None and kept.trusted and folder not in dirty:
                folders[folder] = kept
                found.extend(kept.files)
                pending.extend(reversed(kept.folders))
                continue
            now = self.clock()
            try:
                stat = os.stat(folder)
            except OSError:
                continue
            if kept is None or not kept.trusted or kept.stamp != (stat.st_ino, stat.st_mtime_ns):
                listed = _list(folder, stat, now, kept)
                if listed is None:
                    continue
                kept = listed
            folders[folder] = kept
            found.extend(kept.files)
            pending.extend(reversed(kept.folders))
        self._folders = folders
        return found

    def _target(self, source: Path) -> Path:
        target = self._targets.get(source)
        if target is None:
            target = self.path if source == self.source else (
                self.path / source.relative_to(self.source))
            self._targets[source] = target
        return target

    def sync(self, events: Collection[str | Path] | None = None) -> bool:
        """Bring the mirror up to date; True when anything the readers see changed.

        ``events``: the paths the file system's notifications named since the last sync
        (`watchfiles`: files written, files and folders made or removed), or None for none
        known. With them, a file or folder whose stamp was trusted and that no event names is
        taken as it was, without a ``stat``: a run of 300 block files stat-ed each at every
        update (issue 40). What notifications miss (a write on another host of a network file
        system, an overflowed queue) is seen at the next sync without events, or at the
        `RECHECK_NS` check, which every sync makes in full."""
        start = self.clock()
        if self._checked_at is None or not 0 <= start - self._checked_at <= RECHECK_NS:
            # every file read and every folder listed again (see the module docstring):
            # nothing is trusted then, and the events change nothing. The listings stay, as
            # untrusted, for their paths to be reused (`_list`)
            self._stamps.clear()
            self._folders = {folder: _Folder(kept.stamp, False, kept.files, kept.folders)
                             for folder, kept in self._folders.items()}
            self._checked_at = start
            self.full_checks += 1
        named = None if events is None else {Path(p) for p in events}
        dirty = None if named is None else named | {p.parent for p in named}
        changed = False
        seen = set()
        for source in self.sources(dirty):
            seen.add(source)
            if named is not None and source not in named and source in self._stamps:
                continue  # trusted, and no event since
            try:
                stat = os.stat(source)
                stamp = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
                if self._stamps.get(source) == stamp:
                    continue  # as it was when last read in full
                if source.suffix == ".json":
                    changed |= self._sync_json(source)
                else:
                    changed |= self._sync_lines(source)
            except FileNotFoundError:  # removed between listing and reading
                continue
            if settled(stat.st_mtime_ns, start):  # `start`: the clock before any stat
                self._stamps[source] = stamp
            else:
                self._stamps.pop(source, None)
        for gone in [p for p in (*self._files, *self._json) if p not in seen]:
            self._files.pop(gone, None)
            self._json.pop(gone, None)
            self._stamps.pop(gone, None)
            target = self._target(gone)
            self._targets.pop(gone, None)
            target.unlink(missing_ok=True)
            self._absent(target)
            self._wrote(target)
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
        self._there(target)
        self._wrote(target)
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
            self._absent(target)
            self._wrote(target)
            if not new.data:  # no complete line yet: to the readers the file does not exist yet
                return had
        elif not new.data:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "ab") as out:
            out.write(new.data)
        self._there(target)
        self._wrote(target)
        return True

    def written_since(self, path: Path, mark: int) -> bool:
        """Whether the mirrored file ``path`` was written to or removed after the mirror's
        `writes` count was ``mark``. A reader of the mirror that noted `writes` when it read
        knows which files are as it read them without a ``stat`` of each (the l2logger tail
        checked every finished block file of the run so at every update: 300 calls for a run
        of 100 block folders and 3 workers)."""
        return self._written.get(path, 0) > mark

    def _wrote(self, target: Path) -> None:
        self.writes += 1
        self._written[target] = self.writes

    def mirrored(self, name: str) -> list[Path]:
        """The mirrored files named ``name`` (unordered): what a search of the mirror's folder
        finds, from the mirror's own record of what it wrote and removed, which `layout`
        counts (the l2logger tail asks at every update: a search walked every folder)."""
        return [p for p in self._present if p.name == name]

    def _there(self, target: Path) -> None:
        if target not in self._present:
            self._present.add(target)
            self.layout += 1

    def _absent(self, target: Path) -> None:
        if target in self._present:
            self._present.discard(target)
            self.layout += 1


@dataclass(frozen=True)
class _Folder:
    """A folder of the source as listed: its files and subfolders (paths, in `os.walk`'s
    order), its inode and modification time before the listing, and whether that stamp was
    settled (`settled`) when it was listed."""

    stamp: tuple[int, int]
    trusted: bool
    files: list[Path]
    folders: list[Path]


def _list(folder: Path, stat: os.stat_result, now: int,
          last: "_Folder | None" = None) -> "_Folder | None":
    """``folder`` listed as `os.walk` lists it, or None when it cannot be. The paths of the
    entries ``last`` (its listing before) had are taken from it: a run's worker folder gains
    a block folder at a time, and joining each of its hundred names to the folder again was
    ~3 ms of an update (three workers, 99 blocks)."""
    known = {} if last is None else {p.name: p for p in (*last.files, *last.folders)}
    try:
        with os.scandir(folder) as listing:
            entries = [e for e in listing if not e.name.startswith(".")]
    except OSError:
        return None
    files, folders = [], []
    for entry in entries:
        try:
            is_folder = entry.is_dir()
        except OSError:
            is_folder = False
        if not is_folder:
            files.append(entry.name)
        elif not entry.is_symlink():
            folders.append(entry.name)
    return _Folder((stat.st_ino, stat.st_mtime_ns), settled(stat.st_mtime_ns, now),
                   [known.get(name) or folder / name for name in sorted(files)],
                   [known.get(name) or folder / name for name in sorted(folders)])


def settled(mtime_ns: int, now_ns: int) -> bool:
    """Whether a file or folder stamped ``mtime_ns`` and read at ``now_ns`` was stamped long
    enough before that a change after the reading would have moved its stamp (see the module
    docstring)."""
    resolution = COARSE_NS if mtime_ns % 1_000_000_000 == 0 else FINE_NS
    return mtime_ns < now_ns - resolution
