"""The JSON-RPC protocol, hardened: a malformed request gets an error answer.

pygls rejects a request whose params do not match the LSP types by logging it and popping
up "Error in server", but never answers the request, so the editor waits forever. Here the
request gets a JSON-RPC ``InvalidParams`` error (message only, no traceback) and the server
carries on.
"""

from __future__ import annotations

import logging
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

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

    def handle_message(self, message: Any) -> None:
        if message is REJECTED:
            return
        super().handle_message(message)
