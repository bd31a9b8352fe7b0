"""Log readers share one protocol (issue 28 item 1): ``READERS`` maps every format ``--log-format``
offers to a ``Reader`` (path, ``ReadRequest``) -> ``EpisodeLog``, and ``read_log`` reads
through it, detected format or named."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.metrics.readers import FORMATS, READERS, ReadRequest, detect, read_log

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "metrics"
LOGS = {
    "csv": FIX / "rewards.csv", "tsv": FIX / "rewards_steps.tsv", "jsonl": FIX / "rewards.jsonl",
    "parquet": FIX / "rewards.parquet", "l2logger": FIX / "l2logger_v11", "learnkit": FIX / "learnkit_sep2020" / "two_tasks-1600830032-0285285",
    "iscil": FIX / "iscil" / "mixed" / "training_log.log",
}


def test_every_format_but_auto_has_a_reader() -> None:
    assert set(READERS) == set(FORMATS) - {"auto"} == set(LOGS)


@pytest.mark.parametrize("fmt", sorted(LOGS))
def test_each_reader_reads_its_format_as_read_log_does(fmt: str) -> None:
    path = LOGS[fmt]
    assert detect(path) == fmt
    direct = READERS[fmt](path, ReadRequest(fmt=fmt))
    through = read_log(path)
    assert direct.format == through.format
    if direct.frame is not None:
        assert direct.frame.equals(through.frame)
    assert len(direct.frame if direct.frame is not None else ()) == len(through.frame if through.frame is not None else ())
