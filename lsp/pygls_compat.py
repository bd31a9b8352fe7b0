"""Everything sylla does to pygls beyond its public API, in one place.

pygls is pinned below the next minor version in pyproject.toml: each item here overrides or
reads a private member, checked against pygls 2.1, and a new pygls must be checked again.

- ``SyllaProtocol`` (``LanguageServerProtocol``): answers a request whose params cannot be
  read (upstream: openlawlibrary/pygls#326, "Be less strict with wrong LSP types?", open);
  overrides ``_send_response`` and reads ``_converter``, ``_result_types``,
  ``_include_headers`` and ``_server._report_server_error`` to send an answer that is already
  JSON text; reads ``_converter`` and ``_serialize_message`` to make the converters of the
  edit's messages at start-up (``make_converters``).
- ``LspTextDocument`` (``TextDocument``): LSP's line rules (see ``sync``); overrides
  ``_apply_incremental_change``, reads and sets ``_source``.
- ``LspWorkspace`` / ``use_lsp_line_rules``: pygls builds its ``Workspace`` inside its own
  initialize handler and has no factory for documents (upstream: openlawlibrary/pygls#131,
  "Register custom Document and Workspace classes", closed with a subclassing workaround), so
  the workspace's class is switched after the fact and ``_create_text_document`` overridden,
  reading ``_sync_kind``.

The JSON-RPC protocol, hardened: a malformed request gets an error answer.

pygls rejects a request whose params do not match the LSP types by logging it and popping
up "Error in server", but never answers the request, so the editor waits forever. Here the
request gets a JSON-RPC ``InvalidParams`` error (message only, no traceback) and the server
carries on.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from typing import Any, Sequence

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCResponseMessage
from pygls.workspace import TextDocument, Workspace

from sylla.grammar.core import LineIndex

from .sync import apply_indexed, encoding_name, lsp_lines

log = logging.getLogger("sylla.lsp")


class _Rejected:
    """Stands in for a message that could not be read; ``handle_message`` drops it."""

    __slots__ = ()


REJECTED = _Rejected()


class Wire:
    """An answer already in its JSON form (see ``outline``): sent as it is, without the
    converter walking thousands of dicts to find nothing to convert."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class RawJson:
    """An answer already written as JSON text (the outline, see ``outline``): it goes into
    the response as it is, where even a ``Wire`` value would cost a JSON encoding of
    thousands of dicts on the event loop."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class SyllaProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._converter.register_unstructure_hook(Wire, lambda wire: wire.value)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" in data and "method" in data:
                error = exc if isinstance(exc, JsonRpcInvalidParams) else JsonRpcInternalError()
                error = type(error)(message=f"sylla: cannot read {data.get('method')!s} request: {error.message}")
                self._send_response(data["id"], error=error.to_response_error())
            else:
                log.warning("dropped an unreadable %s message", data.get("method", "response"))
            return REJECTED

    def _send_response(self, msg_id: Any, result: Any | None = None, error: Any = None) -> None:
        if error is not None or not isinstance(result, RawJson):
            super()._send_response(msg_id, result, error)
            return
        self._result_types.pop(msg_id, None)
        self._send_text(('{"id":%s,"jsonrpc":"2.0","result":' % json.dumps(msg_id), result.text, "}"))

    def _send_text(self, body: tuple[str, ...]) -> None:
        """``_send_data`` for a message that is already JSON text, in parts (the same
        framing): the outline's 2 MB are encoded once and joined once with the rest, where a
        format, an encoding and a header in front copied them three times."""
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        parts = [part.encode(self.CHARSET) for part in body]
        if self._include_headers:
            header = f"Content-Length: {sum(map(len, parts))}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            parts.insert(0, header.encode(self.CHARSET))
        data = b"".join(parts)
        try:
            res = self.writer.write(data)
            if inspect.isawaitable(res):
                asyncio.ensure_future(res)
        except BrokenPipeError:
            log.error("the connection to the client is lost")
            raise
        except Exception as error:
            log.exception("Error sending data")
            self._server._report_server_error(error, JsonRpcInternalError)

    def handle_message(self, message: Any) -> None:
        if message is REJECTED:
            return
        super().handle_message(message)

    def make_converters(self, methods: Sequence[str], answers: Sequence[Any]) -> None:
        """Have the converter write its code for the messages of ``methods`` and for
        ``answers`` (each sent as a response is), before a message of theirs arrives
        (``warm``): it writes it on first use, milliseconds per type."""
        for method in methods:
            message = self.get_message_type(method)
            if message is not None:
                self._converter.get_structure_hook(message)
        for answer in answers:
            json.dumps(JsonRPCResponseMessage(id=0, result=answer, jsonrpc=self.VERSION), default=self._serialize_message)


class LspTextDocument(TextDocument):
    """A pygls document whose lines and incremental edits follow LSP's line rules.

    It keeps the line index of its text from one edit to the next (``sync.apply_indexed``);
    ``_index`` is only used while it is the index of ``_source`` (pygls sets ``_source`` itself
    for a full-text change)."""

    _index: LineIndex | None = None

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        source = self.source
        index = self._index if self._index is not None and self._index.text is source else LineIndex(source)
        self._index = apply_indexed(index, change, encoding_name(self.position_codec.encoding))
        self._source = self._index.text

    def adopt_index(self, index: LineIndex) -> None:
        """Keep ``index`` as the line index of the text if it is the index of exactly this
        text (the parse of an opened document builds one anyway): the first edit after
        opening a 500 KB document then finds its 10,000 line breaks in it instead of again."""
        if self._index is None and index.text is self._source:
            self._index = index

    @property
    def lines(self) -> Sequence[str]:
        return lsp_lines(self.source)


class LspWorkspace(Workspace):
    """A pygls workspace that keeps its text documents as ``LspTextDocument``."""

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )


def use_lsp_line_rules(workspace: Workspace) -> None:
    """Make the workspace pygls created at ``initialize`` create ``LspTextDocument``s.

    pygls builds its ``Workspace`` inside its own initialize handler and offers no factory;
    the subclass adds behaviour only, no state, so switching the instance's class is safe.
    """
    if not isinstance(workspace, LspWorkspace):
        workspace.__class__ = LspWorkspace
