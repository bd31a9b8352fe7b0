"""One numbering of a string column read in pieces: an Arrow dictionary column, runs of equal
values and a small file's texts give the same codes for the same values."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from sylla.metrics.readers.codes import Codes


def test_pieces_of_every_kind_share_one_numbering() -> None:
    texts = ["Pong", "pong", "Breakout", "Breakout", "Seaquest"]
    by_kind = []
    for kind in ("dictionary", "runs", "texts"):
        codes = Codes(fold=True)
        first = codes.of_texts(["Breakout"])  # an earlier piece numbered Breakout first
        if kind == "dictionary":
            later = codes.of_dictionary(pa.chunked_array([pa.array(texts).dictionary_encode()]))
        elif kind == "runs":
            later = codes.of_runs(np.array([0, 1, 2, 4]), ["Pong", "pong", "Breakout",
                                                           "Seaquest"], len(texts))
        else:
            later = codes.of_texts(texts)
        assert first.tolist() == [0]
        by_kind.append(later.tolist())
        assert codes.names == ["Breakout", "Pong", "Seaquest"]
        assert codes.warnings() and "'pong'" in codes.warnings()[0]
    assert by_kind[0] == by_kind[1] == by_kind[2] == [1, 1, 0, 0, 2]


def test_a_new_value_is_shown_to_the_check_once() -> None:
    seen: list[str] = []

    def check(value: str, codes: Codes) -> None:
        if value == "bad":
            raise ValueError(value)
        seen.append(value)

    codes = Codes(on_new=check)
    assert codes.of_texts(["a", "b", "a"]).tolist() == [0, 1, 0]
    assert codes.of_texts(["b", "a"]).tolist() == [1, 0]
    assert seen == ["a", "b"]
    with pytest.raises(ValueError, match="bad"):
        codes.of_texts(["bad"])
