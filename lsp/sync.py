"""The server's copy of each document, kept in sync with LSP's line rules.

LSP counts only ``\\n``, ``\\r\\n`` and ``\\r`` as line breaks. pygls 2.1 splits a document
with ``str.splitlines``, which also breaks at U+2028, U+2029, U+0085, ``\\v``, ``\\f`` and
``\\x1c``-``\\x1e``; one of those inside a JSON string shifts every later line, so each
incremental edit after it lands in the wrong place and the server lints text the user never
wrote. Here the edit's range is resolved with sylla's own ``PositionMap`` (LSP line rules, the
negotiated encoding) and applied by slicing, and ``lines`` follows the same rules for any
pygls helper that still reads it. The pygls subclasses that apply these rules (they override
private members) are in ``pygls_compat``.
"""

from __future__ import annotations

import re

from lsprotocol import types

from sylla.grammar.core import LineIndex

from .positions import PositionMap

_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
#: characters ``str.splitlines`` breaks at that LSP does not
_EXTRA_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def encoding_name(encoding: object) -> str:
    """``"utf-16"`` for ``PositionEncodingKind.Utf16`` or ``"utf-16"`` (``str()`` of the enum
    member is its qualified name, not its value); UTF-16, LSP's default, for None."""
    value = getattr(encoding, "value", encoding)
    return str(value) if value else types.PositionEncodingKind.Utf16.value


def lsp_lines(text: str) -> tuple[str, ...]:
    """``text`` split into lines with their breaks kept, breaking only where LSP does."""
    if not any(ch in text for ch in _EXTRA_BREAKS):
        return tuple(text.splitlines(True))
    return tuple(_LSP_LINE.findall(text))


def apply_indexed(index: LineIndex, change: types.TextDocumentContentChangePartial, encoding: str) -> LineIndex:
    """``index.text`` with one incremental change applied (positions past the end clamp to
    it), as the new text's line index: built from the old one (``LineIndex.edited``), not by
    finding every line break of the new text again, which cost 2 ms per keystroke on a
    500 KB document, before any request sent with the change was read."""
    positions = PositionMap(index, encoding)
    start = positions.offset(change.range.start)
    end = max(start, positions.offset(change.range.end))
    text = index.text
    return LineIndex.edited(index, text[:start] + change.text + text[end:], start, end, start + len(change.text))
