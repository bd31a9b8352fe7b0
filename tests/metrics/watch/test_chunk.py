"""Appended CSV/TSV rows parsed for an update: the batch reader's values, or None."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sylla.metrics.readers.plain import read_plain
from sylla.metrics.watch.chunk import parse_rows

from .conftest import WATCH


@pytest.mark.parametrize(("name", "sep"), [("rewards.csv", ","), ("rewards.tsv", "\t")])
def test_rows_equal_the_batch_readers(tmp_path: Path, name: str, sep: str) -> None:
    lines = (WATCH / name).read_bytes().splitlines(True)
    got = parse_rows(b"".join(lines[40:]), lines[0], sep, "reward")
    part = tmp_path / name
    part.write_bytes(lines[0] + b"".join(lines[40:]))
    frame = read_plain(part, "reward", name.rsplit(".", 1)[1]).frame
    assert got is not None
    assert np.array_equal(got["perf"], frame["perf"].to_numpy())
    assert np.array_equal(got["episode"], frame["episode"].to_numpy())
    assert got["task"].tolist() == frame["task"].astype(str).tolist()


@pytest.mark.parametrize("rows", [
    b"5,Pong,true\n",  # a boolean reward
    b"5,Pong,\n",  # a missing one
    b"5,Pong,inf\n",  # not finite
    b"5.5,Pong,1.0\n",  # no whole episode number
    b"-1,Pong,1.0\n",  # a negative one
    b"5,7,1.0\n",  # a task named by a number: the batch reader's text conversion
    b"5,Pong,1.0",  # no final newline
    b"5,Pong,1.0,extra\n",  # a ragged row
])
def test_rows_the_batch_reader_must_judge_give_none(rows: bytes) -> None:
    assert parse_rows(rows, b"episode,task,reward\n", ",", "reward") is None


def test_other_columns_give_none() -> None:
    header = b"episode,task,reward,step\n"
    assert parse_rows(b"5,Pong,1.0,0\n", header, ",", "reward") is None

