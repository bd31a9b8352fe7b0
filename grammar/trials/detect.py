"""The one decision "is this a wave-3 trial file": a JSON object whose ``id`` is a ``c``
label, whose ``program`` is a string and whose ``data`` is a list. The file name plays no part."""

from __future__ import annotations

import json
import re

#: a trial's ``id``, compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
ID_RE = r"^c[0-9]{3}$"


def is_trial_file(data: bytes | str) -> bool:
    if isinstance(data, bytes):
        if b'"program"' not in data[:200_000] or b'"data"' not in data[:200_000]:
            return False
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return False
    elif '"program"' not in data or '"data"' not in data:
        return False
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):  # broken, a number past 4,300 digits, or nested past the C decoder's limit
        return _looks_like(data)
    return (
        isinstance(doc, dict) and isinstance(doc.get("id"), str) and bool(re.match(ID_RE, doc["id"]))
        and isinstance(doc.get("program"), str) and isinstance(doc.get("data"), list)
    )


def _looks_like(text: str) -> bool:
    """A trial file that ``json`` cannot read (a syntax error, a huge number, deep nesting) still
    is one, so that lint reports what is wrong: its first key is ``"id"`` with a ``c`` label, as
    every file of the request has it."""
    return re.match(r'\s*\{\s*"id"\s*:\s*"c[0-9]{3}"', text) is not None
