"""The local server of ``sylla watch``: the page, its bundled assets, ``/api/state`` and
server-sent events.

Why Starlette + uvicorn + sse-starlette: a handful of routes and one event stream need no
framework beyond that, and all three are small and well kept. The follower runs in a thread
(watchfiles blocks on the kernel's events); each new state is handed to the event loop, and
every open page receives only the curve points it has not seen yet.

Safety: the routes are fixed; assets are looked up in a fixed table (`page.ASSETS`), so no
request can name a file; nothing is ever written.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import socket
import sys
import threading
from typing import Any, AsyncIterator

import uvicorn
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from .follow import Follower
from .page import ASSETS, asset, live_page

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _clean(value: Any) -> Any:
    """JSON for the page: NaN and infinities become null (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def dumps(value: Any) -> str:
    return json.dumps(_clean(value), allow_nan=False, default=str)


class Hub:
    """Hands each new state from the follower thread to every connected page."""

    def __init__(self, follower: Follower) -> None:
        self.follower = follower
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[int]] = set()
        self.stop = threading.Event()

    def announce(self) -> None:
        """Called in the follower thread after every new state."""
        if self.loop is None:
            return
        for queue in list(self.queues):
            self.loop.call_soon_threadsafe(queue.put_nowait, self.follower.version)

    def run_follower(self) -> None:
        told = False
        for state in self.follower.changes(self.stop):
            self.announce()
            if state.divergence is not None and not told:  # the terminal hears it too
                print(f"sylla: {state.divergence}", file=sys.stderr, flush=True)
            told = state.divergence is not None

    async def events(self) -> AsyncIterator[dict[str, str]]:
        """``reset`` with every point on connect, then ``rows`` (new points only) and
        ``state`` (the document, without the series) on every change."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.queues.add(queue)
        try:
            state = self.follower.state
            sent, epoch = len(state.points), state.epoch
            yield {"event": "reset", "data": dumps(state.points)}
            yield {"event": "state", "data": dumps(state.to_json())}
            while True:
                await queue.get()
                while not queue.empty():  # several changes while busy: send the latest once
                    queue.get_nowait()
                state = self.follower.state
                points = state.points
                if state.epoch != epoch or len(points) < sent:  # rebuilt: truncated, replaced
                    yield {"event": "reset", "data": dumps(points)}  # or down-sampled anew
                elif len(points) > sent:
                    yield {"event": "rows", "data": dumps(points[sent:])}
                sent, epoch = len(points), state.epoch
                yield {"event": "state", "data": dumps(state.to_json())}
        finally:
            self.queues.discard(queue)


def make_app(hub: Hub) -> Any:
    """The Starlette application: four fixed routes."""

    async def index(_request: Request) -> Response:
        return HTMLResponse(live_page())

    async def assets(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(asset(name), media_type=ASSETS[name])

    async def state(_request: Request) -> Response:
        return Response(dumps(hub.follower.state.to_json()), media_type="application/json")

    async def events(_request: Request) -> Response:
        return EventSourceResponse(hub.events(), ping=15)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield

    return Starlette(routes=[
        Route("/", index), Route("/assets/{name}", assets), Route("/api/state", state),
        Route("/api/events", events)], lifespan=lifespan)


def claim_port(host: str, port: int, tries: int = 20) -> socket.socket:
    """A socket listening on ``port``, or on the next port that can be bound (tried in order).

    It listens from here on, so the port printed to the user is the one served: probing a port
    and binding it later leaves a gap in which another process (a second ``sylla watch``
    started at the same moment) takes it, and the page's address then leads to that process.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in range(port, port + tries):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn sets it
        try:
            sock.bind((host, candidate))
            sock.listen(2048)  # uvicorn's default backlog
        except OSError:
            sock.close()
            continue
        return sock
    raise OSError(f"ports {port}-{port + tries - 1} on {host} are all in use")


def bound_port(sock: socket.socket) -> int:
    return int(sock.getsockname()[1])


def serve(follower: Follower, sock: socket.socket) -> None:
    """Serve on ``sock`` (from `claim_port`) until interrupted; the follower thread stops with
    the server."""

    hub = Hub(follower)
    thread = threading.Thread(target=hub.run_follower, name="sylla-watch-follow", daemon=True)
    thread.start()
    config = uvicorn.Config(make_app(hub), log_level="warning", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        hub.stop.set()
        thread.join(timeout=2)


class Background:
    """The same page served from threads of another command (``sylla run --watch``), which
    keeps its main thread (and its Ctrl-C) for its own work: `start` returns once the server
    listens, `stop` ends the server and the follower."""

    def __init__(self, follower: Follower, sock: socket.socket) -> None:
        self.hub = Hub(follower)
        self.sock = sock
        config = uvicorn.Config(make_app(self.hub), log_level="warning", lifespan="on")
        self.ready = threading.Event()
        self.server = _Server(config, self.ready)
        self.threads = [
            threading.Thread(target=self.hub.run_follower, name="sylla-watch-follow", daemon=True),
            threading.Thread(target=self._serve, name="sylla-watch-serve", daemon=True),
        ]

    def _serve(self) -> None:
        try:
            self.server.run(sockets=[self.sock])
        except SystemExit:  # uvicorn exits when it cannot start; `start` reports it
            pass
        finally:
            self.ready.set()

    def start(self) -> None:
        """Start serving; an `OSError` when the server could not start."""
        for thread in self.threads:
            thread.start()
        self.ready.wait()
        if not self.server.started:
            self.stop()
            raise OSError("the watch server could not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.hub.stop.set()
        for thread in self.threads:
            if thread.is_alive():
                thread.join(timeout=5)


class _Server(uvicorn.Server):
    """uvicorn's server, telling a waiting thread once it listens (uvicorn has no event)."""

    def __init__(self, config: uvicorn.Config, ready: threading.Event) -> None:
        super().__init__(config)
        self.ready = ready

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        self.ready.set()
