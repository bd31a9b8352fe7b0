"""Text edits that respect the file's layout: insert an instruction on its own line with the
neighbours' indentation (or inline in a one-line list), delete one without touching comments.

Fixes are built from these so that every fix keeps the bytes outside its edits unchanged.
An insertion is placed relative to the *separator comma*, found by skipping comments and
margin notes, never relative to a line end: a comment may sit between an instruction and its
comma (``{...}\\n  // evaluation\\n  , {...}``), and a multi-line ``/* */`` may start after it.
"""

from __future__ import annotations

from sylla.grammar.core import Span

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


def skip_trivia(text: str, pos: int, same_line: bool = False) -> int:
    """The offset of the next token at or after ``pos``, past whitespace, comments and notes.

    With ``same_line``, stop at the first line break outside a comment (returning its offset)
    and at a ``/* */`` that spans lines (returning its start): what follows is not on this line.
    """
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in " \t":
            pos += 1
        elif c in "\r\n":
            if same_line:
                return pos
            pos += 1
        elif text.startswith("//", pos) or text.startswith("<--", pos):
            end = text.find("\n", pos)
            pos = n if end < 0 else (end - 1 if end > 0 and text[end - 1] == "\r" else end)
            if not same_line:
                pos = n if end < 0 else end + 1
        elif text.startswith("/*", pos):
            end = text.find("*/", pos + 2)
            end = n if end < 0 else end + 2
            if same_line and "\n" in text[pos:end]:
                return pos
            pos = end
        else:
            return pos
    return n


def insert_before(text: str, span: Span, instruction: str) -> Edit:
    """Insert ``instruction,`` before the instruction at ``span``: on its own line with the
    same indentation when that instruction starts its line, else inline."""
    if starts_line(text, span.start):
        start = line_start(text, span.start)
        return Edit(Span(start, start), f"{indent_at(text, span.start)}{instruction},{newline_of(text)}")
    return Edit(Span(span.start, span.start), f"{instruction}, ")


def insert_after(text: str, span: Span, instruction: str, next_span: Span | None = None) -> Edit:
    """Insert ``instruction`` after the instruction at ``span`` (``next_span`` is unused and
    kept for callers; the neighbours are found in the text).

    After the separator comma: on a line of its own when the comma ends its line (comments and
    margin notes after it stay on that line), else inline. Without a comma (the last element)
    a comma is added right after ``span``, and the new instruction goes after what else is on
    that line, so a ``// sylla: ignore[...]`` there still names the line it was on.
    """
    nl = newline_of(text)
    indent = indent_at(text, span.start) if starts_line(text, span.start) else None
    pos = skip_trivia(text, span.end)
    if pos < len(text) and text[pos] == ",":
        # the edit spans the comma it relies on, so a fix that deletes that comma (a trailing
        # comma) conflicts with it instead of leaving the new instruction without a separator;
        # the new instruction takes a comma along: a trailing comma stays a trailing comma
        after = pos + 1
        eol = skip_trivia(text, after, same_line=True)
        if eol < len(text) and text[eol] in "\r\n" and indent is not None:
            start = text.index("\n", eol) + 1
            return Edit(Span(pos, start), f"{text[pos:start]}{indent}{instruction},{nl}")
        return Edit(Span(pos, after), f", {instruction},")
    if indent is not None:
        eol = skip_trivia(text, span.end, same_line=True)
        if eol < len(text) and text[eol] in "\r\n":
            # `{...} // note` + `,` before the note, the instruction on the next line
            rest = text[span.end : eol]
            return Edit(Span(span.end, eol), f",{rest}{nl}{indent}{instruction}")
        return Edit(Span(span.end, span.end), f",{nl}{indent}{instruction}")
    return Edit(Span(span.end, span.end), f", {instruction}")
