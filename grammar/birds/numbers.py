"""Whole numbers as the game reads them: ``int.Parse``, a 32-bit signed integer.

A value outside [-2147483648, 2147483647] stops the game's generator with an overflow, so it
is not a number the model can compute with: ``game_int`` answers None for it (as for a word),
and the parse reports it at its position (``xml-number-range``, rule B805). The digits are
counted before anything is converted, so a literal of any length costs one pass over its text
and never meets Python's 4,300-digit limit on ``int(str)`` (a traceback, before issue 38).
"""

from __future__ import annotations

import re

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1
#: an optional sign, digits, surrounding blanks: what int.Parse's default style accepts (no
#: ``0*`` before the digits: two quantifiers over the same zeros backtrack quadratically)
_INT = re.compile(r"\s*([+-]?)([0-9]+)\s*\Z")
#: ``lo-hi`` of a level set's ``amount``
_RANGE = re.compile(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*\Z")
#: more significant digits than INT_MAX has cannot be in range
_DIGITS = len(str(INT_MAX))


def _bounded(sign: str, digits: str) -> int | None:
    digits = digits.lstrip("0") or "0"
    if len(digits) > _DIGITS:
        return None
    value = -int(digits) if sign == "-" else int(digits)
    return value if INT_MIN <= value <= INT_MAX else None


def game_int(raw: str) -> int | None:
    """The integer ``raw`` is, when it is one the game can read; else None."""
    m = _INT.match(raw)
    return _bounded(m.group(1), m.group(2)) if m else None


def game_range(raw: str) -> tuple[int, int] | None:
    """``(lo, hi)`` of an ``amount="lo-hi"``, when both ends are numbers the game can read."""
    m = _RANGE.match(raw)
    if m is None:
        return None
    lo, hi = _bounded("", m.group(1)), _bounded("", m.group(2))
    return None if lo is None or hi is None else (lo, hi)


def out_of_range(raw: str) -> bool:
    """Whether ``raw`` is written as a whole number (or a ``lo-hi`` range of them) and one of
    them is outside what int.Parse reads."""
    m = _INT.match(raw)
    if m:
        return _bounded(m.group(1), m.group(2)) is None
    r = _RANGE.match(raw)
    return r is not None and (_bounded("", r.group(1)) is None or _bounded("", r.group(2)) is None)


def clip(text: str, width: int = 40) -> str:
    """``text`` for a message: as it is when short, else its start, an ellipsis and its length
    (a value of a megabyte must not become a message of a megabyte, once per finding)."""
    text = text.strip()
    return text if len(text) <= width else f"{text[: width - 10]}… ({len(text)} characters)"
