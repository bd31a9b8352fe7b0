"""``sylla lsp``: the language server, over stdio (editors), TCP or WebSocket. Its options are
in ``lsp_options``."""

from __future__ import annotations

import argparse
import gc
import logging
import sys

from sylla.lsp.server import create_server

from .lsp_options import DEFAULT_HOST, DEFAULT_PORT


def _host_port(value: str) -> tuple[str, int] | None:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host or DEFAULT_HOST, int(port)


def _address(args: argparse.Namespace) -> tuple[str, int] | str:
    """Where --tcp/--ws listen, or the usage error to print."""
    if args.tcp:  # the older --tcp HOST:PORT form
        if args.host is not None or args.port is not None:
            return "give the address either as --tcp HOST:PORT or with --host/--port, not both"
        return _host_port(args.tcp) or f"--tcp wants HOST:PORT, not {args.tcp!r}"
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 < port < 65536:
        return f"--port wants a number from 1 to 65535, not {port}"
    return (args.host or DEFAULT_HOST, port)


def _usage_error(message: str) -> int:
    print(f"sylla lsp: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    listening = args.tcp is not None or args.ws
    address: tuple[str, int] | None = None
    if listening:
        found = _address(args)
        if isinstance(found, str):
            return _usage_error(found)
        address = found
    elif args.host is not None or args.port is not None:
        return _usage_error("--host and --port go with --tcp or --ws; over stdio there is nothing to listen on")
    if args.ws:
        try:
            import websockets  # noqa: PLC0415, F401 - pygls serves WebSockets with it: this checks it is installed
        except ImportError:
            print("sylla lsp: --ws needs the websockets package: pip install 'pygls[ws]'", file=sys.stderr)
            return 1
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="sylla lsp: %(levelname)s: %(message)s")

    server = create_server()
    # Everything built so far (pygls, lsprotocol's converters, the grammar tables) lives as
    # long as the server: keep it out of the collector's full passes, which otherwise rescan
    # it after every lint and add their pause to the editor's wait for diagnostics.
    gc.collect()
    gc.freeze()
    if address is None:
        server.start_io()
    elif args.ws:
        server.start_ws(*address)
    else:
        server.start_tcp(*address)
    return 0
