"""Document formatting: exactly what ``sylla fmt`` writes, as one whole-document edit."""

from __future__ import annotations

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.linter import format_text

from .positions import PositionMap


def format_document(text: str, positions: PositionMap) -> list[types.TextEdit] | None:
    """The edit that turns ``text`` into its formatted form; [] when it is already formatted,
    None when it cannot be formatted (a syntax error: formatting would guess)."""
    formatted = format_text(text)
    if formatted is None:
        return None
    if formatted == text:
        return []
    return [types.TextEdit(range=positions.range(Span(0, len(text))), new_text=formatted)]
