"""``SortedLines``: membership in a sorted file of equal-length lines, searched where it lies.

The schema's cache of known-valid digests (``schema._known``) is one sorted file of hex digests,
tens of thousands of lines on a machine that lints a lot. Turning it into a set of strings cost
every ``sylla lint`` 18M instructions at 17,000 lines, more than the rest of the parse (issue 24),
to answer a dozen lookups. A binary search over the bytes answers each in a few steps and
builds nothing. A hit counts only when it is a whole line, so a file that is not laid out so
(lines of other lengths, not sorted) can only make a lookup miss, which costs a validation,
never a wrong answer.
"""

from __future__ import annotations


class SortedLines:
    """The lines of ``data`` (ASCII, ``\\n``-separated, sorted, all as long as the first)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        #: a line and its separator
        self.width = data.find(b"\n") + 1 or len(data) + 1
        self.count = (len(data) + self.width - 1) // self.width if data else 0

    def __contains__(self, line: str) -> bool:
        needle = line.encode("ascii", "replace")
        data, width = self.data, self.width
        if len(needle) != width - 1:
            return False
        lo, hi = 0, self.count
        while lo < hi:
            mid = (lo + hi) // 2
            start = mid * width
            here = data[start : start + width - 1]
            if here == needle:
                return (start == 0 or data[start - 1 : start] == b"\n") and data[start + width - 1 : start + width] in (b"\n", b"")
            if here < needle:
                lo = mid + 1
            else:
                hi = mid
        return False

    def lines(self) -> set[str]:
        """Every line (what a writer adds to and writes back)."""
        return set(self.data.decode("ascii", "replace").split())
