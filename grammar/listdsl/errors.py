"""The one error type of the DSL: a message and the span of the program text it is about."""

from __future__ import annotations


class DslError(Exception):
    """A program that cannot be parsed, typed or scored; ``start``/``end`` are offsets into
    the program text, so callers place it at file:line:col or at a CSV row and column."""

    def __init__(self, message: str, start: int = 0, end: int = 0, kind: str = "syntax") -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.kind = kind  # "syntax", "type" or "prior"
