"""``sylla lsp``: the language server, over stdio (editors) or TCP (debugging)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lsp", help="run the language server (stdio; --tcp HOST:PORT to listen instead)")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio")
    p.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="warning",
        help="what the server logs to standard error (default: warning)",
    )
    p.set_defaults(run=run)


def _host_port(value: str) -> tuple[str, int] | None:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    import logging

    address = None
    if args.tcp is not None:
        address = _host_port(args.tcp)
        if address is None:
            print(f"sylla: --tcp wants HOST:PORT, not {args.tcp!r}", file=sys.stderr)
            return 2
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="sylla lsp: %(levelname)s: %(message)s")

    from sylla.lsp.server import create_server

    server = create_server()
    import gc

    # Everything built so far (pygls, lsprotocol's converters, the grammar tables) lives as
    # long as the server: keep it out of the collector's full passes, which otherwise rescan
    # it after every lint and add their pause to the editor's wait for diagnostics.
    gc.collect()
    gc.freeze()
    if address is None:
        server.start_io()
    else:
        server.start_tcp(*address)
    return 0
