"""``replace_file``: the one way sylla replaces a file atomically (issue 28 merged four).

The new bytes go to a temp file in the target's folder, which is renamed over the target, so
a reader or a crash sees the old file or the new one, never half of one; on any failure the
temp file is removed and the target is untouched. Callers add their own policy: the linter's
``write_text`` (permission checks, fsync, owner), ``sylla new``, the parse-table cache
(errors ignored) and the sweep cache (a writer that takes a path, e.g. ``savefig``).
In the core because the core's own cache uses it and the core imports nothing above it.
"""

from __future__ import annotations

import os

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable


def default_mode() -> int:
    """The mode a new file gets under the current umask (``mkstemp`` alone gives 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def replace_file(target: str | os.PathLike[str], write: Callable[[str], object], *, mode: int | None = None,
                 owner: tuple[int, int] | None = None, prefix: str = ".sylla-") -> None:
    """Call ``write(temp_path)``, give the temp file ``mode`` and ``owner`` (uid, gid; best
    effort, only root may give a file away), then rename it over ``target``."""
    import tempfile  # noqa: PLC0415 - lazy: start-up, tempfile (with random) loads only when a file is written (issue 24)

    folder = os.path.dirname(os.fspath(target)) or "."
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        write(tmp)
        if mode is not None:
            os.chmod(tmp, mode)
        if owner is not None and owner != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, *owner)
            except OSError:
                pass  # the group may still differ; the file stays the caller's
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_synced(data: bytes) -> Callable[[str], None]:
    """A ``write`` for `replace_file` that puts ``data`` on disk (fsync) before the rename."""

    def write(path: str) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    return write
