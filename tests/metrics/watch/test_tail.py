"""The one tail reader: whole lines appended since a position, and files that are no longer
the one that was read (replaced, cut, rewritten in place)."""

from __future__ import annotations

import os
from pathlib import Path

from sylla.metrics.watch.tail import START, appended


def test_a_cut_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_bytes(b"a,b\n1,2\n3,")
    first = appended(log, header=True)
    assert first.fresh and first.data == b"a,b\n1,2\n" and first.header == b"a,b\n"
    with open(log, "ab") as handle:
        handle.write(b"4\n5,6")
    second = appended(log, first.position)
    assert not second.fresh and second.data == b"3,4\n"
    assert appended(log, second.position).data == b""  # "5,6" has no newline yet


def test_a_file_cut_or_replaced_is_read_from_its_start(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_bytes(b"a\n1\n2\n")
    seen = appended(log).position
    log.write_bytes(b"a\n")  # cut: smaller than what was read
    cut = appended(log, seen)
    assert cut.fresh and cut.data == b"a\n"
    other = tmp_path / "other.csv"
    other.write_bytes(b"a\n1\n2\n3\n")
    os.replace(other, log)  # replaced by a longer file: another inode
    replaced = appended(log, cut.position)
    assert replaced.fresh and replaced.data == b"a\n1\n2\n3\n"


def test_a_rewrite_in_place_is_noticed_by_its_head(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_bytes(b"a\n1\n")
    seen = appended(log, START, head=16).position
    assert seen.head == b"a\n1\n"
    with open(log, "r+b") as handle:  # same inode, same size and more: only the head tells
        handle.write(b"b\n2\n3\n")
    assert not appended(log, seen).fresh  # without ``head`` the rewrite looks like growth
    again = appended(log, seen, head=16)
    assert again.fresh and again.data == b"b\n2\n3\n" and again.position.head == b"b\n2\n3\n"
    grown = appended(log, again.position, head=16)
    assert not grown.fresh and grown.data == b""
