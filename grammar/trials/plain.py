"""The examples of a trial file read plainly (``json``, no positions), for the checks that compare
files or score a delivery against them: the orderings beside a file (W907, W908), ``--trials``.

None unless every example is ``{"i": [ints], "o": [ints]}``: a file ``json`` cannot read (broken,
a number past Python's 4,300 digits, nesting past the C decoder's limit) or whose values are not
integers is reported by ``sylla lint`` on the file itself, at its position; here it is only
unusable, never a traceback or a value that is compared as if it were an example.
"""

from __future__ import annotations

import json
from typing import Any

Examples = list[tuple[tuple[int, ...], tuple[int, ...]]]


def plain_examples(data: bytes | str) -> Examples | None:
    try:
        doc = json.loads(data.decode("utf-8-sig") if isinstance(data, bytes) else data)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    items = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        return None
    out: Examples = []
    for item in items:
        if not isinstance(item, dict) or not _ints(item.get("i")) or not _ints(item.get("o")):
            return None
        out.append((tuple(item["i"]), tuple(item["o"])))
    return out


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) is int for v in value)
