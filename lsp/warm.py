"""The converters of the messages an edit brings, made when the session starts.

pygls reads and writes each LSP message through a cattrs converter that writes the code for
a message type the first time it meets one: 1-2 ms for a didChange, an outline, hover or
completion request, 3-5 ms for a completion list or a hover in the response, and several
times that on a busy machine. The open's own messages make theirs before anyone waits, but
the first edit after opening met the rest, on its way to every answer the editor waits for
(issue 40). They are made once at ``initialized`` instead, where the session is being set up.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

from .pygls_compat import SyllaProtocol

#: the requests and notifications an editor sends with each keystroke
EDIT_METHODS = (
    types.TEXT_DOCUMENT_DID_CHANGE,
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
    types.TEXT_DOCUMENT_HOVER,
    types.TEXT_DOCUMENT_COMPLETION,
    types.TEXT_DOCUMENT_FOLDING_RANGE,
    types.TEXT_DOCUMENT_INLAY_HINT,
    types.TEXT_DOCUMENT_CODE_ACTION,
)

_RANGE = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=1))


def _answers() -> tuple[Any, ...]:
    """One answer of each kind the server sends for those requests, with each nested type the
    server fills in (a converter is written per type, on the first value of that type)."""
    markdown = types.MarkupContent(kind=types.MarkupKind.Markdown, value="x")
    item = types.CompletionItem(
        label="x", kind=types.CompletionItemKind.Property, detail="x", documentation=markdown,
        insert_text_format=types.InsertTextFormat.Snippet, text_edit=types.TextEdit(range=_RANGE, new_text="x"),
        filter_text="x", sort_text="x",
    )
    return (
        types.Hover(contents=markdown, range=_RANGE),
        types.CompletionList(is_incomplete=False, items=[item]),
        [types.FoldingRange(start_line=0, end_line=1, kind=types.FoldingRangeKind.Region)],
        [types.InlayHint(position=_RANGE.start, label="x", kind=types.InlayHintKind.Type, padding_left=True)],
    )


def warm_up(protocol: LanguageServerProtocol) -> None:
    """Make the converters of the edit's messages (``EDIT_METHODS``) and of their answers
    (sylla's protocol, which knows how)."""
    if isinstance(protocol, SyllaProtocol):
        protocol.make_converters(EDIT_METHODS, _answers())
