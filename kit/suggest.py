"""'Did you mean' suggestions for misspelt names (directives, keys, tasks, parameters)."""

from __future__ import annotations

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Iterable


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The most similar candidate, compared case-insensitively, or None."""
    import difflib  # noqa: PLC0415 - lazy: start-up, difflib loads only when a name is misspelt (issue 24)

    options = list(dict.fromkeys(candidates))
    lowered = {c.lower(): c for c in options}
    if word.lower() in lowered and lowered[word.lower()] != word:
        return lowered[word.lower()]
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[match[0]] if match else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``' (did you mean "x"?)'`` or an empty string."""
    best = closest(word, candidates)
    return f' (did you mean "{best}"?)' if best else ""
