"""``birds_kind``: is this file a Science Birds trial config, and which one, by its root element.

The decision is made on content, never on the file name: a ``configMeta.xml`` whose root is
something else is not linted as one, and a renamed copy still is. The check is cheap: it
looks at the first start tag after the XML declaration, comments and doctype, in the first
64 KB of the decoded text.
"""

from __future__ import annotations

import re

from .kinds import ROOTS, Kind

#: the root's start tag, and what may come before it; both start with ``<``, so a file whose text
#: does not (a JSON file) is answered without them. Patterns are compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
_ROOT = r"<([A-Za-z_][\w.-]*)"
_SKIP = r"\s*(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)"


def birds_kind(data: bytes | str) -> Kind | None:
    """``"meta"`` for ``<config_generation>``, ``"generated"`` for ``<evaluation>``, else None."""
    text = _head(data)
    if text is None or not text.lstrip().startswith("<"):
        return None
    skip = re.compile(_SKIP, re.S)
    pos = 0
    while True:
        m = skip.match(text, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
    m = re.compile(_ROOT).match(text, pos + len(text[pos:]) - len(text[pos:].lstrip()))
    return ROOTS.get(m.group(1)) if m else None


def _head(data: bytes | str) -> str | None:
    if isinstance(data, str):
        return data[:65536].lstrip("\ufeff")
    head = data[:65536]
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if head.startswith(bom):
            return head[len(bom):].decode(codec, errors="replace")
    if head.startswith(b"<\x00"):
        return head.decode("utf-16-le", errors="replace")
    if head.startswith(b"\x00<"):
        return head.decode("utf-16-be", errors="replace")
    if b"\x00" in head:
        return None
    return head.decode("utf-8", errors="replace")
