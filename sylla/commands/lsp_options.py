"""``sylla lsp``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.lsp``.

The flags are the ones LSP clients and pygls use: ``vscode-languageclient`` appends ``--stdio``
when it starts a server with the stdio transport, and pygls's own servers take ``--tcp``/``--ws``
with ``--host`` and ``--port``. The older ``--tcp HOST:PORT`` form keeps working.
"""

from __future__ import annotations

import argparse

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2087


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lsp",
        help="run the language server (stdio; --tcp or --ws with --host/--port to listen instead)",
        description="Run the sylla language server. It speaks LSP over stdio unless --tcp or --ws is given.",
    )
    transport = p.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="speak LSP over stdin/stdout (the default)")
    transport.add_argument(
        "--tcp",
        nargs="?",
        const="",
        metavar="HOST:PORT",
        help=f"listen on a TCP socket at --host/--port (default {DEFAULT_HOST}:{DEFAULT_PORT}), or at HOST:PORT",
    )
    transport.add_argument("--ws", action="store_true", help="listen for a WebSocket connection at --host/--port")
    p.add_argument("--host", help=f"address to listen on with --tcp or --ws (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, help=f"port to listen on with --tcp or --ws (default {DEFAULT_PORT})")
    p.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="warning",
        help="what the server logs to standard error (default: warning)",
    )
