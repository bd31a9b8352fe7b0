"""Which text a log may use to name its structure: a task, a block type, a phase, a worker, a run.

Alignment tells tasks, workers and blocks apart by these names alone, so a name that only looks
like another becomes a task (or worker, or block) of its own, and its rows move into a block of
their own without a word: a NUL or newline in a task name, a zero-width space, an empty cell, or
``Pong`` written once as ``Pong `` (issue 38). Such a name cannot be placed; the readers refuse
it, naming the file and row. A name the reader can place stays as it is: a task that is written
the same way throughout may hold any printable text, spaces inside it included.

Kept free of numpy and pandas: the l2logger block reader checks the few distinct names of each
block with it, and a small log is read without pandas (issue 24).
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Iterable

#: the block types l2logger defines (``l2logger.util.validate_log``) and plain logs use
KINDS = ("train", "test")
#: l2logger 1.1's block subtypes (``l2logger.util.validate_log``)
SUBTYPES = ("wake", "sleep")

#: characters that print as nothing, or as something other than text: control characters (C0,
#: DEL, C1), format characters (zero-width spaces and joiners, bidirectional controls, the
#: byte-order mark, soft hyphens) and the Unicode line and paragraph separators
_INVISIBLE = ("Cc", "Cf", "Zl", "Zp", "Cs")
_PRINTABLE_ASCII = re.compile(r"[ -~]*\Z")


def label_problem(value: object) -> str | None:
    """What makes ``value`` unusable as a name (completing "the task ..."), or None.

    Numbers are names (a task ``3``, a worker ``0``); a missing or empty cell, a JSON object or
    list, and text holding an invisible or control character are not."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "is missing"
    if isinstance(value, (dict, list, tuple, set)) or type(value).__name__ == "ndarray":
        return f"is not text: {value!r}"
    text = value if isinstance(value, str) else str(value)
    if text == "":
        return "is empty"
    if _PRINTABLE_ASCII.match(text):
        return None
    for i, char in enumerate(text, 1):
        category = unicodedata.category(char)
        if category in _INVISIBLE:
            name = unicodedata.name(char, "")
            return (f"{text!r} holds the {'control' if category == 'Cc' else 'invisible'} "
                    f"character U+{ord(char):04X}{f' ({name})' if name else ''} at character {i}")
    return None


def spaced_twin(names: Iterable[str], fold: bool = False) -> tuple[str, str] | None:
    """Two names (the later one first) that differ only in leading or trailing space, as
    ``Pong`` and ``Pong ``: one task written two ways, which no reader can tell apart from two
    tasks. ``fold``: compare case-insensitively too, as task names are compared."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.strip().lower() if fold else name.strip()
        first = seen.setdefault(key, name)
        if first != name and (name.strip() != name or first.strip() != first):
            return name, first
    return None


def twin_problem(name: str, twin: str) -> str:
    """The message for `spaced_twin`'s pair, completing "the task ..."."""
    return (f"{name!r} differs from {twin!r} only in leading or trailing space: one name "
            "written two ways, or two names? Write it one way")
