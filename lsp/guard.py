"""Handler guard: an exception in a feature never reaches the client as a traceback.

pygls answers a failing request with the exception's traceback in the error data and pops
up "Error in server" for a failing notification. A language server runs for hours inside an
editor, so a bug in one feature must cost one answer, not a stack trace in the user's face:
requests get a plain JSON-RPC internal error, notifications a log line.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any, Callable, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcInternalError

log = logging.getLogger("sylla.lsp")

F = TypeVar("F", bound=Callable[..., Any])


def _describe(exc: BaseException) -> str:
    return f"sylla: internal error: {type(exc).__name__}: {exc}"


def request(fn: F) -> F:
    """Wrap a request handler: failures become a JSON-RPC error without a traceback."""
    if asyncio.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return await fn(*args, **kwargs)
            except (JsonRpcException, asyncio.CancelledError):
                raise
            except Exception as exc:
                log.exception("request handler %s failed", fn.__name__)
                raise JsonRpcInternalError(message=_describe(exc)) from None

        return async_wrapper  # type: ignore[return-value]  # the wrapper takes and returns what the handler F does; Callable[..., Any] cannot say so without ParamSpec

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except JsonRpcException:
            raise
        except Exception as exc:
            log.exception("request handler %s failed", fn.__name__)
            raise JsonRpcInternalError(message=_describe(exc)) from None

    return wrapper  # type: ignore[return-value]  # the wrapper takes and returns what the handler F does; Callable[..., Any] cannot say so without ParamSpec


def notification(fn: F) -> F:
    """Wrap a notification handler: failures are logged, never raised."""
    if asyncio.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> None:
            try:
                await fn(*args, **kwargs)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("notification handler %s failed", fn.__name__)

        return async_wrapper  # type: ignore[return-value]  # the wrapper takes and returns what the handler F does; Callable[..., Any] cannot say so without ParamSpec

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:
            log.exception("notification handler %s failed", fn.__name__)

    return wrapper  # type: ignore[return-value]  # the wrapper takes and returns what the handler F does; Callable[..., Any] cannot say so without ParamSpec
