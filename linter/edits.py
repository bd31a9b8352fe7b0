"""Text edits that respect the file's layout: insert an instruction on its own line with the
neighbours' indentation (or inline in a one-line list), delete one without touching comments.

Fixes are built from these so that every fix keeps the bytes outside its edits unchanged.
"""

from __future__ import annotations

from sylla.grammar.model import Span

from .finding import Edit


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def indent_at(text: str, offset: int) -> str:
    """The whitespace before ``offset`` on its line, if only whitespace precedes it there."""
    start = line_start(text, offset)
    before = text[start:offset]
    return before if before.strip() == "" else ""


def newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def starts_line(text: str, offset: int) -> bool:
    start = line_start(text, offset)
    return text[start:offset].strip() == ""


def insert_before(text: str, span: Span, instruction: str) -> Edit:
    """Insert ``instruction,`` before the instruction at ``span``: on its own line with the
    same indentation when that instruction starts its line, else inline."""
    if starts_line(text, span.start):
        start = line_start(text, span.start)
        return Edit(Span(start, start), f"{indent_at(text, span.start)}{instruction},{newline_of(text)}")
    return Edit(Span(span.start, span.start), f"{instruction}, ")


def insert_after(text: str, span: Span, instruction: str, next_span: Span | None) -> Edit:
    """Insert ``instruction`` after the instruction at ``span``.

    With a following instruction, the new one goes right after ``span``'s line (it keeps the
    comma already there and gets its own); at the end of the list it goes after ``span``
    with a comma in front. Comments and margin notes on ``span``'s line stay where they are.
    """
    nl = newline_of(text)
    indent = indent_at(text, span.start)
    if next_span is not None:
        between = text[span.end : next_span.start]
        if "\n" in between and starts_line(text, span.start):
            eol = text.find("\n", span.end) + 1
            return Edit(Span(eol, eol), f"{indent}{instruction},{nl}")
        return insert_before(text, next_span, instruction)
    if starts_line(text, span.start):
        return Edit(Span(span.end, span.end), f",{nl}{indent}{instruction}")
    return Edit(Span(span.end, span.end), f", {instruction}")
