"""``SortedLines`` answers as the set of the file's lines would, and a file that is not
laid out as it expects can only make a lookup miss (a validation), never hit wrongly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sylla.kit.sorted_lines import SortedLines

HEX = st.text("0123456789abcdef", min_size=6, max_size=6)


@given(st.sets(HEX), st.lists(HEX), st.booleans())
def test_lookups_equal_the_set_of_lines(lines: set[str], asked: list[str], trailing: bool) -> None:
    data = "\n".join(sorted(lines)).encode() + (b"\n" if trailing and lines else b"")
    found = SortedLines(data)
    for line in [*lines, *asked]:
        assert (line in found) == (line in lines)
    assert found.lines() == lines


def test_an_empty_file_knows_nothing() -> None:
    assert "abcdef" not in SortedLines(b"")
    assert SortedLines(b"").lines() == set()


def test_a_longer_line_does_not_contain_a_shorter_hit() -> None:
    """The second line is ``xx`` + a digest: the search lands inside it, which is no line."""
    data = b"aaaaaa\nxxbbbbbb\ncccccc"
    assert "xxbbbb" not in SortedLines(data)
    assert "bbbbbb" not in SortedLines(data)
    assert "aaaaaa" in SortedLines(data)


def test_lines_of_another_length_are_never_hits() -> None:
    assert "aaa" not in SortedLines(b"aaaaaa\nbbbbbb")
    assert "aaaaaaa" not in SortedLines(b"aaaaaa\nbbbbbb")
