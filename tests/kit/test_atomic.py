"""``replace_file``, the one atomic writer: a failed write leaves the old file and no temp file;
a good one gives the requested mode."""

from __future__ import annotations

import os
import stat

import pytest

from sylla.kit.atomic import default_mode, replace_file, write_synced


def test_a_failing_writer_leaves_the_old_bytes_and_no_temp_file(tmp_path) -> None:
    target = tmp_path / "a.json"
    target.write_bytes(b"old")

    def fail(path: str) -> None:
        with open(path, "wb") as fh:
            fh.write(b"ne")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        replace_file(target, fail)
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.json"]


def test_replaces_with_the_mode_asked_for(tmp_path) -> None:
    target = tmp_path / "b.json"
    target.write_bytes(b"old")
    replace_file(target, write_synced(b"new"), mode=0o640)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    replace_file(target, write_synced(b"newer"), mode=default_mode())
    assert stat.S_IMODE(target.stat().st_mode) == default_mode()
