"""Table 1.0 of the DSL: symbol -> (arity, type). Types are written as in the table and read
by ``types.parse_type``; ``t0``, ``t1`` are universally quantified."""

from __future__ import annotations

#: symbol -> (arity, type text); the integers are added per problem range (see ``int_range``)
SYMBOLS: dict[str, tuple[int, str]] = {
    "nan": (0, "int"),
    "true": (0, "bool"),
    "false": (0, "bool"),
    "empty": (0, "[t1]"),
    "cons": (2, "t1 -> [t1] -> [t1]"),
    "+": (2, "int -> int -> int"),
    "-": (2, "int -> int -> int"),
    ">": (2, "int -> int -> bool"),
    "fix": (2, "t0 -> ((t0 -> t1) -> t0 -> t1) -> t1"),
    "head": (1, "[t1] -> t1"),
    "if": (3, "bool -> t1 -> t1 -> t1"),
    "is_empty": (1, "[t1] -> bool"),
    "is_equal": (2, "t1 -> t1 -> bool"),
    "tail": (1, "[t1] -> [t1]"),
}

#: other spellings the reference text itself uses (its `fix` example writes `empty?`)
ALIASES = {"empty?": "is_empty"}

SMALL_MAX, LARGE_MAX = 9, 99


def int_max(problem: int | None) -> int:
    """The largest integer constant of a problem's DSL: 9 for problems 1-80, 99 for 81-100
    (wave3-online-trials-request.md, *Task*); unknown problems get the larger DSL."""
    if problem is not None and 1 <= problem <= 80:
        return SMALL_MAX
    return LARGE_MAX
