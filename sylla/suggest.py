""""Did you mean ...?" for a misspelt command, option or choice on the command line.

A newcomer's first guesses (``sylla lnit``, ``--sylabus``, ``-f jsn``) should cost one glance,
not a trip to ``--help``. Python 3.14's argparse suggests close choices itself
(``suggest_on_error``); on older Pythons, and for unknown options (which argparse never
suggests), difflib finds the closest spelling. Only the standard library is used, so the
command line keeps its fast start.
"""

from __future__ import annotations

import argparse
import re
import sys

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Iterable

#: argparse of Python 3.14 and newer can suggest a close choice on its own
NATIVE_SUGGESTIONS = sys.version_info >= (3, 14)

#: argparse's message for a bad choice, compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
_INVALID_CHOICE = r"invalid choice: (?P<value>'[^']*'|\S+) \(choose from (?P<choices>.*)\)\s*$"


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like ``word``, or None when none is close enough to be a typo."""
    import difflib  # noqa: PLC0415 - lazy: start-up, difflib loads only for a misspelt argument (issue 24)

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string the parser accepts (``--syllabus``, ``-s``, ...)."""
    return [o for action in parser._actions for o in action.option_strings]


def with_choice_hint(message: str) -> str:
    """argparse's "invalid choice" message with "did you mean 'X'?" appended when one of the
    choices is close; other messages (and those argparse 3.14 already completed) unchanged."""
    m = re.search(_INVALID_CHOICE, message, re.S)
    if m is None or "maybe you meant" in message:
        return message
    value = m.group("value").strip("'")
    choices = re.findall(r"'([^']*)'", m.group("choices")) or [
        c.strip() for c in m.group("choices").split(",")]
    guess = closest(value, choices)
    return f"{message}; did you mean '{guess}'?" if guess else message


def unrecognized_message(extras: list[str], parser: argparse.ArgumentParser) -> str:
    """"unrecognized arguments: ..." with a suggestion for each unknown option that is close to
    one of ``parser``'s (the parser of the command the user typed, not the top level's)."""
    known = option_strings(parser)
    hints = []
    for arg in extras:
        if arg.startswith("-") and len(arg) > 1:
            name = arg.split("=", 1)[0]
            guess = closest(name, [o for o in known if o.startswith("--")] if name.startswith("--") else known)
            if guess:
                hints.append(f"{name} -> {guess}")
    message = f"unrecognized arguments: {' '.join(extras)}"
    if len(hints) == 1:
        return f"{message}; did you mean {hints[0].split(' -> ')[1]}?"
    if hints:
        return f"{message}; did you mean: {', '.join(hints)}?"
    return message
